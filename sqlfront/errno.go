package sqlfront

import "syscall"

// syscallEMFILE is "too many open files", which Serve waits out.
const syscallEMFILE = syscall.EMFILE

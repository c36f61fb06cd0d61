package recommender

import (
	"os"
	"syscall"
	"unsafe"
)

// hugePages advises the kernel to back table, memory of the Go heap, with
// transparent huge pages (on), or not to (off). It covers the whole pages
// inside table, takes effect where the system grants huge pages on request
// (transparent_hugepage set to madvise or always), and is only advice: a
// failure changes nothing but speed.
func hugePages[T float32 | float64](table []T, on bool) {
	size := len(table) * int(unsafe.Sizeof(T(0)))
	if size == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(table))), size)
	page := os.Getpagesize()
	lo := -int(uintptr(unsafe.Pointer(&b[0]))) & (page - 1)
	if size-lo < page {
		return
	}
	advice := syscall.MADV_NOHUGEPAGE
	if on {
		advice = syscall.MADV_HUGEPAGE
	}
	_ = syscall.Madvise(b[lo:lo+(size-lo)/page*page], advice)
}

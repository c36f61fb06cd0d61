//go:build !linux

package recommender

// hugePages does nothing where the kernel takes no advice on huge pages
// (see pages_linux.go).
func hugePages[T float32 | float64](table []T, on bool) {}

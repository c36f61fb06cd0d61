package training_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/mlops/training"
)

// closer counts its Close calls.
type closer struct{ closed int }

func (c *closer) Close() error { c.closed++; return nil }

// TestMemoryReleaseClosesHeld checks that Release gives back what was
// reserved and closes, once, what Hold was given.
func TestMemoryReleaseClosesHeld(t *testing.T) {
	b := &fakeBudget{}
	mem := training.NewMemory(b)
	if err := mem.Reserve(context.Background(), 100, "rows"); err != nil {
		t.Fatal(err)
	}
	a, c := &closer{}, &closer{}
	mem.Hold(a)
	mem.Hold(c)
	if a.closed+c.closed != 0 {
		t.Fatal("closed before Release")
	}
	mem.Release()
	mem.Release()
	if a.closed != 1 || c.closed != 1 || b.held() != 0 {
		t.Errorf("after Release: closed %d and %d times, %d bytes held; want once each and 0", a.closed, c.closed, b.held())
	}
}

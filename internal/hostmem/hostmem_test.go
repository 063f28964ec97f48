package hostmem

import (
	"os"
	"strings"
	"testing"
)

// TestFreePageReporting holds reporting to sysfs's layout: a
// directory of the driver's files and links to its devices, each device
// with a features file of one digit per bit.
func TestFreePageReporting(t *testing.T) {
	features := func(bits ...int) string {
		b := []byte(strings.Repeat("0", 64))
		for _, i := range bits {
			b[i] = '1'
		}
		return string(b) + "\n"
	}
	for _, tc := range []struct {
		name    string
		devices map[string]string // device name -> its features
		want    bool
	}{
		{"reporting", map[string]string{"virtio0": features(1, 2, 5, 7, 32)}, true},
		{"stats and OOM deflate only", map[string]string{"virtio0": features(1, 2, 32)}, false},
		{"free page hinting is not reporting", map[string]string{"virtio0": features(3)}, false},
		{"second device reports", map[string]string{"virtio0": features(1), "virtio3": features(5)}, true},
		{"no device bound", nil, false},
		{"short features file", map[string]string{"virtio0": "0110"}, false},
		{"a driver file named like a bit string", map[string]string{"uevent": features(5)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"bind", "unbind", "uevent"} {
				if err := os.WriteFile(dir+"/"+f, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, feat := range tc.devices {
				os.Remove(dir + "/" + name)
				if err := os.Mkdir(dir+"/"+name, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dir+"/"+name+"/features", []byte(feat), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := reporting(dir); got != tc.want {
				t.Errorf("reporting = %v; want %v", got, tc.want)
			}
		})
	}
	if reporting(t.TempDir() + "/none") {
		t.Error("a missing driver directory reports free pages")
	}
}

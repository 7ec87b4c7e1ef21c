//go:build linux || darwin

package artifact

import "syscall"

// freeSpace is the bytes an unprivileged process may still write on dir's file system.
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil //nolint:gosec,unconvert // Bsize is int64 on Linux, uint32 on macOS
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// atomicFile is a file written beside its final name and renamed over it
// by commit: a reader never sees it half-written, and a failed command
// leaves nothing (discard removes it).
type atomicFile struct {
	*os.File
	final string
}

func createAtomic(name string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{File: f, final: name}, nil
}

// sync makes the file durable with the given mode, before any rename.
func (a *atomicFile) sync(mode os.FileMode) error {
	if err := a.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", a.final, err)
	}
	if err := a.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", a.final, err)
	}
	if err := a.Close(); err != nil {
		return fmt.Errorf("write %s: %w", a.final, err)
	}
	return nil
}

// rename puts the synced file under its final name.
func (a *atomicFile) rename() error {
	if err := os.Rename(a.Name(), a.final); err != nil {
		return fmt.Errorf("write %s: %w", a.final, err)
	}
	return nil
}

// discard removes the file if it was not renamed (harmless after).
func (a *atomicFile) discard() {
	a.Close()
	os.Remove(a.Name())
}

// writeFileAtomic writes data to name through an atomicFile.
func writeFileAtomic(name string, data []byte) error {
	a, err := createAtomic(name)
	if err != nil {
		return err
	}
	defer a.discard()
	if _, err := a.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := a.sync(0o644); err != nil {
		return err
	}
	return a.rename()
}

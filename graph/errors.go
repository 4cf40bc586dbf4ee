package graph

import (
	"errors"
	"fmt"
)

// Code classifies an error for callers that must map it to a protocol
// (GraphQL extensions, HTTP status, exit codes).
type Code string

// The error codes.
const (
	NotFound Code = "NOT_FOUND"
	Invalid  Code = "INVALID"
	Conflict Code = "CONFLICT"
	Internal Code = "INTERNAL"
	// DiskFull: the store's disk is nearly full and writes are refused
	// before anything is written; reads go on.
	DiskFull Code = "DISK_FULL"
)

// Error is an error with a Code.
type Error struct {
	Code Code
	Msg  string // the whole message, cause included
	Err  error  // wrapped cause, may be nil
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// ErrNotFound is returned by lookups that find nothing.
var ErrNotFound = &Error{Code: NotFound, Msg: "not found"}

// Is lets errors.Is(err, ErrNotFound) match any NotFound error, whatever
// its message.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Code == NotFound
}

// Errorf builds an *Error with a code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// ErrorCode returns the code of the first *Error in err's chain, or Internal.
func ErrorCode(err error) Code {
	switch e := err.(type) {
	case nil:
		return Internal // without the allocation of errors.As's target
	case *Error:
		return e.Code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

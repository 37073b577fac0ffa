// Package datalock keeps two daemons off one data directory: the first
// holds an exclusive lock on <data>/.lock for its life, a second one is
// refused with ErrHeld.
package datalock

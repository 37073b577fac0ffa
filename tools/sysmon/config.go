package sysmon

import (
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// DefaultSampleInterval is how often the background Sampler refreshes the
// CPU percentage when Config.SampleInterval is zero.
const DefaultSampleInterval = time.Second

// ErrInvalidConfig is wrapped by New and NewSampler for a bad Config.
var ErrInvalidConfig = errors.New("sysmon: invalid config")

// Config configures a Monitor. The zero value is ready to use.
type Config struct {
	// SampleInterval is the period of the background CPU sampler.
	// Zero means DefaultSampleInterval; negative is an error.
	SampleInterval time.Duration

	// Logger receives sampler warnings. Nil means zap.NewNop().
	Logger *zap.Logger
}

// populate returns a copy of c with defaults filled in.
func (c Config) populate() Config {
	if c.SampleInterval == 0 {
		c.SampleInterval = DefaultSampleInterval
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	return c
}

// validate reports whether a populated c is usable.
func (c Config) validate() error {
	if c.SampleInterval < 0 {
		return fmt.Errorf("%w: negative sample interval %v", ErrInvalidConfig, c.SampleInterval)
	}
	return nil
}

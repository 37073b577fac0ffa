module opsassist/bench

go 1.26.0

replace opsassist => ../

require (
	github.com/quic-go/quic-go v0.65.0
	opsassist v0.0.0-00010101000000-000000000000
)

require (
	go.uber.org/multierr v1.10.0 // indirect
	go.uber.org/zap v1.28.0 // indirect
	golang.org/x/crypto v0.57.0 // indirect
	golang.org/x/net v0.59.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

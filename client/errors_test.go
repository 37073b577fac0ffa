package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"opsassist/api"
)

func TestUndelivered(t *testing.T) {
	se := &ServerError{Code: api.CodeInternal, Message: "boom"}
	lost := fmt.Errorf("%w: %w", ErrConnectionLost, io.EOF)
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"nil", nil, nil},
		{"server error", se, nil},
		{"wrapped server error", fmt.Errorf("chat: %w", se), nil},
		{"cut reply", joinServerError(se, lost), lost},
		{"cancelled after an error", joinServerError(se, context.Canceled), context.Canceled},
		{"other", lost, lost},
	}
	for _, tt := range tests {
		if got := Undelivered(tt.err); got != tt.want {
			t.Errorf("%s: Undelivered(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
	cut := joinServerError(se, lost)
	if !errors.Is(cut, io.EOF) || !errors.Is(cut, &ServerError{Code: api.CodeInternal}) {
		t.Errorf("%v does not match both its parts", cut)
	}
}

package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/bytesize"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
	"opsassist/tools/toolcall"
)

// apiError is the body of every error response: {"code", "message"},
// Code one of the api.Code* codes.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// errorf builds an apiError.
func errorf(status int, code, msg string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg}
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"code":"`+api.CodeInternal+`","message":"encoding the reply failed"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError sends err as a JSON error. Errors of the chat core, the
// history store and the upload store get their own status and code;
// anything else is a 500 whose detail is logged, not sent.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := s.classify(err)
	if ae.Status >= 500 && ae.Code != api.CodeQuotaExceeded {
		s.log.Error("request failed", zap.String("method", r.Method), zap.String("path", r.URL.Path), zap.Error(err))
	}
	writeJSON(w, ae.Status, ae)
}

// classify maps err to a status, a code and the message the client
// reads: chat.Message, the transports' one wording of the core's and the
// stores' errors (no package prefixes, ids unquoted); a toolcall error
// keeps its Message, written for people already.
func (s *Server) classify(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var mbe *http.MaxBytesError
	var qe *uploads.QuotaError
	var se *uploads.SizeError
	switch {
	case errors.As(err, &qe):
		return errorf(http.StatusInsufficientStorage, api.CodeQuotaExceeded, qe.Message())
	case errors.As(err, &mbe):
		return errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, "request body larger than "+bytesize.Short(mbe.Limit))
	case errors.As(err, &se):
		return errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, se.Message())
	case errors.Is(err, uploads.ErrTooLarge):
		return errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, chat.Message(err))
	case errors.Is(err, uploads.ErrBadName), errors.Is(err, uploads.ErrBadChecksum), errors.Is(err, uploads.ErrChecksum):
		return errorf(http.StatusBadRequest, api.CodeUploadInvalid, chat.Message(err))
	case errors.Is(err, history.ErrNotFound):
		return errorf(http.StatusNotFound, api.CodeNotFound, chat.Message(err))
	case errors.Is(err, history.ErrAmbiguous):
		return errorf(http.StatusBadRequest, api.CodeBadRequest, chat.Message(err))
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		if status, ok := chatStatus[ce.Code]; ok {
			return errorf(status, ce.Code, chat.Message(ce))
		}
	}
	var te *toolcall.Error
	if errors.As(err, &te) {
		if status, ok := chatStatus[te.Code]; ok {
			return errorf(status, te.Code, te.Message)
		}
	}
	return errorf(http.StatusInternalServerError, api.CodeInternal, "internal error")
}

// chatStatus is the HTTP status of each chat core (and toolcall) error
// code a request may get back; any other code is an internal error.
var chatStatus = map[string]int{
	api.CodeNotFound:           http.StatusNotFound,
	api.CodeUnknownModel:       http.StatusBadRequest,
	api.CodeBadRequest:         http.StatusBadRequest,
	api.CodePermissionUnknown:  http.StatusNotFound,
	api.CodePermissionAnswered: http.StatusConflict,
	api.CodePermissionExpired:  http.StatusGone,
	api.CodeBadDecision:        http.StatusBadRequest,
	api.CodeQuestionUnknown:    http.StatusNotFound,
	api.CodeQuestionAnswered:   http.StatusConflict,
	api.CodeQuestionExpired:    http.StatusGone,
	api.CodeBadAnswer:          http.StatusBadRequest,
	api.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	api.CodeServerBusy:         http.StatusServiceUnavailable,
}

// decodeJSON reads a JSON body of at most MaxJSONBody bytes into v. An
// empty body is allowed when optional is set. Anything but white space
// after the value ("{} ]", "{}{}") is bad_json.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	sr := newStallReader(w, r.Body, s.cfg.StallTimeout)
	defer sr.done()
	body := http.MaxBytesReader(w, sr, s.cfg.MaxJSONBody)
	dec := json.NewDecoder(body)
	err := dec.Decode(v)
	if err == nil {
		err = onlySpace(io.MultiReader(dec.Buffered(), body))
	}
	var mbe *http.MaxBytesError
	switch {
	case err == nil, errors.Is(err, io.EOF) && optional:
		return nil
	case errors.Is(err, errTrailingData):
		err = errorf(http.StatusBadRequest, api.CodeBadJSON, "request body has data after the JSON value")
	case errors.As(err, &mbe):
	default:
		err = errorf(http.StatusBadRequest, api.CodeBadJSON, "request body is not valid JSON: "+err.Error())
	}
	sr.abandon()
	return err
}

// errTrailingData is onlySpace's error for data after a JSON value.
var errTrailingData = errors.New("web: data after the JSON value")

// onlySpace reads r to its end and returns nil if it held only JSON
// white space, errTrailingData at the first other byte, or r's error.
func onlySpace(r io.Reader) error {
	var buf [512]byte
	for {
		n, err := r.Read(buf[:])
		for _, c := range buf[:n] {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return errTrailingData
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
	}
}

// codeForStatus names the code of a plain-text error written by net/http
// (the mux, http.ServeContent), which the guard turns into JSON.
func codeForStatus(status int) string {
	switch status {
	case http.StatusNotFound:
		return api.CodeNotFound
	case http.StatusMethodNotAllowed:
		return api.CodeMethodNotAllowed
	case http.StatusRequestedRangeNotSatisfiable:
		return api.CodeRangeNotSatisfiable
	case http.StatusRequestEntityTooLarge:
		return api.CodeTooLarge
	case http.StatusUnauthorized:
		return api.CodeUnauthorized
	case http.StatusForbidden:
		return api.CodeForbidden
	case http.StatusServiceUnavailable:
		return api.CodeServerBusy
	}
	if status >= 500 {
		return api.CodeInternal
	}
	return api.CodeBadRequest
}

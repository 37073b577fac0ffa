package web

import (
	"net/http"
	"net/url"
	"strconv"

	"opsassist/api"
	"opsassist/storage/history"
)

// maxQuery bounds GET /api/sessions?q=.
const maxQuery = 256

// maxPage bounds GET /api/sessions?limit=.
const maxPage = 500

// listPage is a page of the conversation list: at most limit (0: all)
// conversations after the position before names ("": from the start) —
// a cursor (history.Cursor) as the previous page's "next" gave it, or,
// as clients of earlier versions send, a conversation id.
type listPage struct {
	limit  int
	before string
}

// parsePage reads ?limit= and ?before=.
func parsePage(q url.Values) (listPage, error) {
	p := listPage{before: q.Get("before")}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxPage {
			return p, errorf(http.StatusBadRequest, api.CodeBadRequest, "limit must be a number from 1 to "+strconv.Itoa(maxPage))
		}
		p.limit = n
	}
	return p, nil
}

// apply cuts list (in history.Compare's order) to the page. next is the
// cursor to pass as before for the following page, "" on the last one.
// A cursor stays valid whatever changes meanwhile (history.Cursor says
// what a walk then shows); one that is not a cursor is 400 bad_request.
// A conversation id as before (the form earlier versions sent) that is
// not in list is 404 not_found.
func (p listPage) apply(list []history.Summary) (page []history.Summary, next string, err error) {
	var from *history.Cursor
	switch {
	case p.before == "":
	case history.IsCursor(p.before):
		c, err := history.ParseCursor(p.before)
		if err != nil {
			return nil, "", errorf(http.StatusBadRequest, api.CodeBadRequest, "before: not a cursor from this list's \"next\"")
		}
		from = &c
	default:
		i := -1
		for k, s := range list {
			if s.ID == p.before {
				i = k
				break
			}
		}
		if i < 0 {
			return nil, "", errorf(http.StatusNotFound, api.CodeNotFound, "before: no conversation "+p.before+" in this list")
		}
		c := history.CursorAt(list[i])
		from = &c
	}
	page, nc := history.Page(list, from, p.limit)
	if nc != nil {
		next = nc.String()
	}
	return page, next, nil
}

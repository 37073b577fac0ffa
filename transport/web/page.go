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
// conversations after the one whose id is before ("": from the start).
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

// apply cuts list to the page. next is the id to pass as before for the
// following page, "" on the last one. A before that is not in list (its
// conversation deleted since, say) is 404 not_found.
func (p listPage) apply(list []history.Summary) (page []history.Summary, next string, err error) {
	if p.before != "" {
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
		list = list[i+1:]
	}
	if p.limit > 0 && len(list) > p.limit {
		return list[:p.limit], list[p.limit-1].ID, nil
	}
	return list, "", nil
}

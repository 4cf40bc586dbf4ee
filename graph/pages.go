// Paged paper lists: the cursors and pages of an owner's papers.

package graph

import (
	"encoding/base64"
	"slices"
)

// PaperPage is one page of an ordered paper list.
type PaperPage struct {
	Total     int
	Papers    []*Node
	Cursors   []string
	HasNext   bool
	EndCursor string
}

// EncodeCursor makes an opaque cursor from a list sort key.
func EncodeCursor(sortKey []byte) string {
	return base64.RawURLEncoding.EncodeToString(sortKey)
}

// DecodeCursor validates an opaque cursor and returns its sort key.
func DecodeCursor(c string) ([]byte, error) {
	k, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(k) > 2+48+9 {
		return nil, Errorf(Invalid, "invalid cursor %q", truncate(c, 64))
	}
	if _, ok := paperFromSortKey(k); !ok {
		return nil, Errorf(Invalid, "invalid cursor %q", truncate(c, 64))
	}
	return k, nil
}

// Papers returns a page of the papers of owner (an author's, a subject's or a
// concept's), newest first then by title.
func (v *View) Papers(owner NodeID, first int, after string) (PaperPage, error) {
	var t EdgeType
	switch owner.Kind() {
	case KindAuthor:
		t = Authored
	case KindSubject:
		t = InSubject
	case KindConcept:
		t = Mentions
	default:
		return PaperPage{}, Errorf(Invalid, "%s has no paper list", owner)
	}
	var start []byte
	if after != "" {
		k, err := DecodeCursor(after)
		if err != nil {
			return PaperPage{}, err
		}
		start = k
	}
	total, err := v.r.Counter(degreeCounter(owner, t))
	if err != nil {
		return PaperPage{}, err
	}
	page := PaperPage{Total: int(total)}
	var keys [][]byte
	err = v.r.List(owner, t, start, func(k []byte) bool {
		if len(keys) == first {
			page.HasNext = true
			return false
		}
		keys = append(keys, slices.Clone(k))
		return true
	})
	if err != nil {
		return page, err
	}
	for _, k := range keys {
		id, ok := paperFromSortKey(k)
		if !ok {
			continue
		}
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return page, err
		}
		page.Papers = append(page.Papers, n)
		page.Cursors = append(page.Cursors, EncodeCursor(k))
	}
	if len(page.Cursors) > 0 {
		page.EndCursor = page.Cursors[len(page.Cursors)-1]
	}
	return page, nil
}

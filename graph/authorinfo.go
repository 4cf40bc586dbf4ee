// What a record says about an author besides the name: ORCID iD,
// affiliation, e-mail (kept per paper and name, read as evidence).

package graph

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// AuthorInfo is what a source says about one author of one paper beyond
// the name (Atom and BibTeX sometimes carry it).
type AuthorInfo struct {
	ORCID       string `json:"orcid,omitempty"` // "0000-0002-1825-0097"
	Affiliation string `json:"aff,omitempty"`
	Email       string `json:"email,omitempty"`
}

func (i AuthorInfo) empty() bool { return i == AuthorInfo{} }

func (i AuthorInfo) encode() []byte {
	b, _ := json.Marshal(i)
	return b
}

// clean normalises what a reader found: an ORCID iD without its resolver
// and checked, the rest as plain text.
func (i AuthorInfo) clean() AuthorInfo {
	i.ORCID = ORCIDKey(i.ORCID)
	i.Affiliation = ident.Clip(ident.CleanText(ident.LatexToText(i.Affiliation)), 300)
	i.Email = ident.Clip(strings.TrimSpace(strings.ToLower(i.Email)), 200)
	return i
}

// ORCIDKey returns an ORCID iD as its 16 characters in groups of four
// ("0000-0002-1825-0097"), with any https://orcid.org/ prefix dropped, or
// "" when it is not one (its ISO 7064 11,2 check digit is checked).
func ORCIDKey(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"https://orcid.org/", "http://orcid.org/", "orcid.org/"} {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
		}
	}
	var d []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case c == 'X' || c == 'x':
			d = append(d, 'X')
		case c == '-' || c == ' ':
		default:
			return ""
		}
	}
	if len(d) != 16 || slices.Contains(d[:15], 'X') {
		return ""
	}
	total := 0
	for _, c := range d[:15] {
		total = (total + int(c-'0')) * 2
	}
	check := (12 - total%11) % 11
	want := byte('0' + check)
	if check == 10 {
		want = 'X'
	}
	if d[15] != want {
		return ""
	}
	return string(d[0:4]) + "-" + string(d[4:8]) + "-" + string(d[8:12]) + "-" + string(d[12:16])
}

// authorInfoKey keys the info of a name on a paper (by the name, so the
// info stays with the use whichever person holds it).
func authorInfoKey(paper NodeID, block string) string { return authorTerm(paper) + " " + block }

func authorInfo(r Reader, paper NodeID, block string) (AuthorInfo, error) {
	var i AuthorInfo
	v, err := r.Value(ValAuthorInfo, authorInfoKey(paper, block))
	if ErrorCode(err) == NotFound {
		return i, nil
	}
	if err != nil {
		return i, err
	}
	if err := json.Unmarshal(v, &i); err != nil {
		return i, fmt.Errorf("author info of %s: %w", paper, err)
	}
	return i, nil
}

// affilWords are the words of an affiliation and the domain of an e-mail
// address, as evidence.
func affilWords(aff, email string) []string {
	var out []string
	if aff != "" {
		out = people.EvidenceWords(aff, nil)
	}
	if i := strings.LastIndex(email, "@"); i >= 0 && i < len(email)-1 {
		out = append(out, "@"+ident.FoldKey(email[i+1:]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

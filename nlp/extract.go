package nlp

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/jdkato/prose/v2"

	"github.com/researchkg/kg/graph"
)

// Extractor finds key terms. It is safe for concurrent use: the tagger model
// is read-only after loading.
type Extractor struct {
	tagger *tagger
}

// extractMax is how many terms Extract returns.
const extractMax = 15

var _ graph.TermExtractor = (*Extractor)(nil)

var (
	taggerOnce sync.Once
	sharedTag  *tagger
	taggerErr  error
)

// New returns an Extractor. The tagger model (prose's, ~5 MB of weights) is
// loaded once per process and shared: it is read-only.
func New() *Extractor {
	taggerOnce.Do(func() { sharedTag, taggerErr = loadTagger() })
	if taggerErr != nil {
		panic("nlp: " + taggerErr.Error()) // the model is compiled into prose: cannot happen but by a broken build
	}
	return &Extractor{tagger: sharedTag}
}

// Version names the extractor's behaviour: candidates, canonical forms and
// scoring. Change it with any change that alters which keys a text yields, so
// stores counted with the old behaviour are recomputed (kg recompute), not
// mixed.
const Version = "kg-terms-9"

// Version implements graph.TermExtractor.
func (e *Extractor) Version() string { return Version }

type token struct {
	text string
	tag  string
}

var urlRe = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|\b[a-z0-9.-]+\.(?:com|org|io|net)/\S*`)

// mayHaveURL is false when urlRe cannot match: every match holds "://",
// "www." or a "." + com/org/io/net + "/" (any case). Most abstracts have
// none, and the regexp's scan of them was 2% of ingest's CPU.
func mayHaveURL(text string) bool {
	if strings.Contains(text, "://") {
		return true
	}
	for i := range len(text) {
		switch c := text[i]; {
		case c == '.' && i >= 3 && strings.EqualFold(text[i-3:i], "www"):
			return true
		case c == '/' && i >= 3 && text[i-3] == '.' && strings.EqualFold(text[i-2:i], "io"),
			c == '/' && i >= 4 && text[i-4] == '.' && tld3(text[i-3:i]):
			return true
		}
	}
	return false
}

func tld3(s string) bool {
	return strings.EqualFold(s, "com") || strings.EqualFold(s, "org") || strings.EqualFold(s, "net")
}

// tag tokenises with prose (no model needed: tagging, segmentation and NER
// off) and tags with the deterministic tagger. The text has been through
// repairText.
func (e *Extractor) tag(text string) []token {
	doc, err := prose.NewDocument(text, prose.WithTagging(false),
		prose.WithSegmentation(false), prose.WithExtraction(false))
	if err != nil {
		return nil
	}
	toks := doc.Tokens()
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.Text != "" {
			out = append(out, token{text: t.Text})
		}
	}
	e.tagger.tag(out)
	return out
}

func appendUnique(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

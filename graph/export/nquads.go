package export

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph"
)

// The vocabularies N-Quads exports use (doc.go lists each term).
const (
	rdfType    = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
	schemaNS   = "http://schema.org/"
	dctermsNS  = "http://purl.org/dc/terms/"
	foafNS     = "http://xmlns.com/foaf/0.1/"
	skosNS     = "http://www.w3.org/2004/02/skos/core#"
	xsdNS      = "http://www.w3.org/2001/XMLSchema#"
	subjectsIR = "urn:kg:scheme:arxiv-subjects"
)

func term(ns, local string) string { return "<" + ns + local + ">" }

// nquads writes RDF N-Quads (W3C RDF 1.1 N-Quads), every statement in
// the default graph: the stored facts of the papers, people, subjects,
// concepts, repositories and organisations. Co-authorship and
// co-occurrence are not written: they are derived (a SPARQL query over
// schema:author and schema:about), and RDF has no place for their counts
// without reification.
type nquads struct {
	*out
	labels map[graph.NodeID]string // concepts: their names, for schema:keywords
	iris   map[graph.NodeID]string // papers, repositories, organisations: IRIs not made from the id
}

// iri is a node's IRI: a paper's arXiv abstract page or DOI where it has
// one, a repository's GitHub address, an organisation's GitHub page, a
// subject's code; otherwise urn:kg:<kind>:<number>, stable within a store
// (ids are never reused) but not across stores.
func (q *nquads) iri(id graph.NodeID) string {
	if s, ok := q.iris[id]; ok {
		return s
	}
	return "<urn:kg:" + id.Kind().String() + ":" + strconv.FormatUint(id.Seq(), 10) + ">"
}

var arxivIDRe = regexp.MustCompile(`^([a-z-]+(\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})$`)

// iriOf makes the IRI a node's own identity gives, "" when it has none.
func iriOf(n graph.ExportNode) string {
	switch n.Kind() {
	case graph.KindPaper:
		if arxivIDRe.MatchString(n.ArXivID) {
			return "<https://arxiv.org/abs/" + n.ArXivID + ">"
		}
		if n.DOI != "" {
			return "<https://doi.org/" + iriEscape(n.DOI) + ">"
		}
	case graph.KindSubject:
		return "<urn:kg:subject:" + iriEscape(n.Label) + ">"
	case graph.KindRepository:
		if u, err := url.Parse(n.Label); err == nil && u.Scheme == "https" && u.Host == "github.com" {
			return "<https://github.com" + iriEscapePath(u.Path) + ">"
		}
	case graph.KindOrganization:
		if n.Label != "" {
			return "<https://github.com/" + iriEscape(n.Label) + ">"
		}
	}
	return ""
}

// iriEscape percent-encodes what an IRI reference may not hold (RDF 1.1
// N-Triples IRIREF excludes space, controls and <>"{}|^`\) and what
// would end a path segment.
func iriEscape(s string) string { return url.PathEscape(s) }

func iriEscapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// literal is an N-Quads string literal: quote, backslash and line breaks
// escaped (ECHAR), text cleaned to one line of valid UTF-8.
func literal(s string) string {
	s = clean(s)
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dateLiteral types a date as precise as it is: xsd:date, gYearMonth or
// gYear.
func dateLiteral(d string) string {
	switch len(d) {
	case 10:
		return `"` + d + `"^^<` + xsdNS + `date>`
	case 7:
		return `"` + d + `"^^<` + xsdNS + `gYearMonth>`
	case 4:
		return `"` + d + `"^^<` + xsdNS + `gYear>`
	}
	return literal(d)
}

func (q *nquads) triple(s, p, o string) { q.str(s + " " + p + " " + o + " .\n") }

func (q *nquads) Node(n graph.ExportNode) error {
	if s := iriOf(n); s != "" {
		q.iris[n.ID] = s
	}
	s := q.iri(n.ID)
	name := literal(n.Label)
	switch n.Kind() {
	case graph.KindPaper:
		q.triple(s, rdfType, term(schemaNS, "ScholarlyArticle"))
		q.triple(s, term(schemaNS, "name"), name)
		q.triple(s, term(dctermsNS, "title"), name)
		if n.Date != "" {
			q.triple(s, term(schemaNS, "datePublished"), dateLiteral(n.Date))
		} else if n.Year > 0 {
			q.triple(s, term(schemaNS, "datePublished"), dateLiteral(strconv.Itoa(n.Year)))
		}
		if n.ArXivID != "" {
			q.triple(s, term(schemaNS, "identifier"), literal("arXiv:"+n.ArXivID))
		}
		if n.DOI != "" {
			q.triple(s, term(schemaNS, "sameAs"), "<https://doi.org/"+iriEscape(n.DOI)+">")
		}
		if n.Venue != "" {
			q.triple(s, term(dctermsNS, "bibliographicCitation"), literal(n.Venue))
		}
	case graph.KindAuthor:
		q.triple(s, rdfType, term(schemaNS, "Person"))
		q.triple(s, rdfType, term(foafNS, "Person"))
		q.triple(s, term(schemaNS, "name"), name)
		q.triple(s, term(foafNS, "name"), name)
		if n.Display != "" {
			q.triple(s, term(schemaNS, "disambiguatingDescription"), literal(n.Display))
		}
	case graph.KindSubject:
		q.triple(s, rdfType, term(skosNS, "Concept"))
		q.triple(s, term(skosNS, "inScheme"), "<"+subjectsIR+">")
		q.triple(s, term(skosNS, "notation"), name)
		if n.Name != "" {
			q.triple(s, term(skosNS, "prefLabel"), literal(n.Name))
		}
	case graph.KindConcept:
		q.labels[n.ID] = n.Label
		q.triple(s, rdfType, term(skosNS, "Concept"))
		q.triple(s, term(skosNS, "prefLabel"), name)
		for _, a := range sortedAliases(n) {
			q.triple(s, term(skosNS, "altLabel"), literal(a))
		}
	case graph.KindRepository:
		q.triple(s, rdfType, term(schemaNS, "SoftwareSourceCode"))
		q.triple(s, term(schemaNS, "codeRepository"), s)
		q.triple(s, term(schemaNS, "name"), name)
	case graph.KindOrganization:
		q.triple(s, rdfType, term(schemaNS, "Organization"))
		q.triple(s, rdfType, term(foafNS, "Organization"))
		q.triple(s, term(schemaNS, "name"), name)
	}
	return q.err
}

// edgePredicates are the predicate of each stored edge type, written from
// the paper (authorship: paper schema:author person).
var edgePredicates = map[graph.EdgeType]string{
	graph.Authored: term(schemaNS, "author"), graph.InSubject: term(dctermsNS, "subject"),
	graph.Mentions: term(schemaNS, "about"), graph.HasCode: term(schemaNS, "isBasedOn"),
	graph.OwnedBy: term(schemaNS, "maintainer"), graph.Broader: term(skosNS, "broader"),
}

func (q *nquads) Edge(e graph.Edge) error {
	p, ok := edgePredicates[e.Type]
	if !ok {
		return q.err // a derived pair
	}
	s, o := e.Source, e.Target
	if e.Type == graph.Authored {
		s, o = o, s
	}
	q.triple(q.iri(s), p, q.iri(o))
	if e.Type == graph.Mentions {
		if l, ok := q.labels[e.Target]; ok {
			q.triple(q.iri(s), term(schemaNS, "keywords"), literal(l))
		}
	}
	return q.err
}

func (q *nquads) Close() error { return q.flush() }

package export

import (
	"encoding/json"
	"strconv"

	"github.com/researchkg/kg/graph"
)

// vosViewer writes a VOSviewer JSON network (app.vosviewer.com, "JSON
// file type"): one kind of node as items, clustered by their main subject
// (cluster numbers 1 to 1000 in order of first use, named in
// network.clusters), weighted by their papers ("Documents"), and one pair
// type as links with their strength (shared papers): a co-authorship map
// or a term co-occurrence map, as VOSviewer builds from a bibliography.
type vosViewer struct {
	*out
	kind     graph.Kind
	link     graph.EdgeType
	started  bool
	items    int
	links    int
	clusters []string
	cluster  map[string]int
}

// maxClusters is VOSviewer's largest cluster number; items of later
// subjects have no cluster.
const maxClusters = 1000

func newVOSviewer(o *out, kind graph.Kind, link graph.EdgeType) *vosViewer {
	return &vosViewer{out: o, kind: kind, link: link, cluster: map[string]int{}}
}

func jsonString(s string) string {
	b, _ := json.Marshal(clean(s))
	return string(b)
}

func (v *vosViewer) start() {
	if !v.started {
		v.started = true
		v.str(`{"network":{"items":[`)
	}
}

func (v *vosViewer) Node(n graph.ExportNode) error {
	v.start()
	if n.Kind() != v.kind {
		return v.err
	}
	if v.items > 0 {
		v.str(",")
	}
	v.items++
	v.str("\n" + `{"id":` + strconv.FormatUint(n.ID.Seq(), 10) + `,"label":` + jsonString(n.Shown()))
	if n.Subject != "" {
		c, ok := v.cluster[n.Subject]
		if !ok && len(v.clusters) < maxClusters {
			v.clusters = append(v.clusters, n.Subject)
			c = len(v.clusters)
			v.cluster[n.Subject] = c
		}
		if c > 0 {
			v.str(`,"cluster":` + strconv.Itoa(c))
		}
		v.str(`,"description":` + jsonString(n.Subject+"; "+strconv.Itoa(n.Papers)+" papers"))
	}
	v.str(`,"weights":{"Documents":` + strconv.Itoa(n.Papers) + `}}`)
	return v.err
}

func (v *vosViewer) Edge(e graph.Edge) error {
	v.start()
	if e.Type != v.link {
		return v.err
	}
	if v.links == 0 {
		v.str("\n],\"links\":[")
	} else {
		v.str(",")
	}
	v.links++
	v.str("\n" + `{"source_id":` + strconv.FormatUint(e.Source.Seq(), 10) + `,"target_id":` + strconv.FormatUint(e.Target.Seq(), 10) +
		`,"strength":` + strconv.FormatFloat(e.Weight, 'g', -1, 64) + "}")
	return v.err
}

func (v *vosViewer) Close() error {
	v.start()
	if v.links == 0 {
		v.str("\n],\"links\":[")
	}
	v.str("\n],\"clusters\":[")
	for i, s := range v.clusters {
		if i > 0 {
			v.str(",")
		}
		v.str("\n" + `{"cluster":` + strconv.Itoa(i+1) + `,"label":` + jsonString(s) + "}")
	}
	v.str("\n]}}\n")
	return v.flush()
}

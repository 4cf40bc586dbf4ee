// Package export writes a part of the graph (graph.View.Export streams it:
// nodes first, each once, then the edges between them) in the formats
// other tools read. Each writer streams: it holds nothing of the graph
// but, for N-Quads, the names of concepts (for schema:keywords) and the
// IRIs of papers, repositories and organisations; VOSviewer, the subject
// of each cluster.
//
// Node ids are kg's ("paper:17", "author:3"), so a file joins back to the
// GraphQL API. A person who shares a name with others is labelled as in
// lists, "Yang Liu (cs.CV; with Wei Zhang)" (32 people are called Yang Liu
// in the arXiv file); RDF keeps the name and adds the label as
// schema:disambiguatingDescription. Edge types are kg's (AUTHORED author → paper, IN_SUBJECT
// paper → subject, MENTIONS paper → concept with the term's weight,
// HAS_CODE paper → repository, OWNED_BY repository → organisation, BROADER
// concept → broader concept, CO_AUTHOR and CO_OCCURS between two people or
// concepts, weighted by their shared papers, written once from the lower
// id). Node attributes: kind, label, year, date, subject (the code of the
// subject most of the node's papers are in), papers (a person's, subject's,
// concept's, repository's or organisation's), arxiv, doi, venue, name (a
// subject's full name).
//
// # GraphML and GEXF (Gephi, networkx, Cytoscape)
//
// GraphML declares typed keys (year and papers int, weight double) and
// names the label key "label", which Gephi takes as the node label; every
// edge is directed (networkx refuses an undirected edge in a directed
// GraphML graph), pairs from the lower id. GEXF follows version 1.3 and
// its RELAX NG grammar (tested with xmllint): the edge type is the edge's
// kind and label, edges are directed as in GraphML (a mixed graph opens in
// Gephi, not in networkx), and each kind has a colour (viz:color), so a map
// opens coloured by kind.
//
// # VOSviewer
//
// The JSON network of VOSviewer and VOSviewer Online: items are the people
// (vosviewer-authors: a co-authorship map) or the concepts
// (vosviewer-concepts: a term co-occurrence map), with their papers as the
// "Documents" weight and their main subject as the cluster (numbered in
// order of first use, named in network.clusters); links are CO_AUTHOR or
// CO_OCCURS with the shared papers as strength. Item ids are kg's numbers
// within the kind.
//
// # RDF N-Quads
//
// Statements in the default graph, one a line, after RDF 1.1 N-Quads.
// Vocabulary (schema.org, DC terms, FOAF, SKOS):
//
//	paper          a schema:ScholarlyArticle; schema:name and dcterms:title (title);
//	               schema:datePublished (xsd:date, gYearMonth or gYear as precise as known);
//	               schema:identifier "arXiv:…"; schema:sameAs <https://doi.org/…>;
//	               dcterms:bibliographicCitation (venue);
//	               schema:author person; dcterms:subject subject; schema:about concept and
//	               schema:keywords "its name"; schema:isBasedOn repository
//	person         a schema:Person, foaf:Person; schema:name, foaf:name;
//	               schema:disambiguatingDescription (people who share a name)
//	subject        a skos:Concept in <urn:kg:scheme:arxiv-subjects>; skos:notation "cs.LG";
//	               skos:prefLabel (full name)
//	concept        a skos:Concept; skos:prefLabel; skos:altLabel (aliases); skos:broader concept
//	repository     a schema:SoftwareSourceCode; schema:codeRepository (itself); schema:name;
//	               schema:maintainer organisation
//	organisation   a schema:Organization, foaf:Organization; schema:name
//
// IRIs: a paper's arXiv abstract page (https://arxiv.org/abs/2501.01234)
// or else its DOI (https://doi.org/…), a repository's GitHub address, an
// organisation's GitHub page, a subject urn:kg:subject:cs.LG: stable across
// stores. Other nodes are urn:kg:<kind>:<number>, stable within a store
// (ids are never reused), not across stores. Co-authorship and
// co-occurrence are not written: they are a query away (two schema:author
// of one paper), and RDF has no place for their counts without
// reification; mention weights are left out for the same reason.
//
// Loading into Dgraph (dgraph bulk for a new cluster, dgraph live into a
// running one), with a schema that indexes the names:
//
//	kg export --all --format nquads --out kg.nq && gzip kg.nq
//	cat > kg.schema <<'END'
//	<http://schema.org/name>: string @index(term, exact) .
//	<http://www.w3.org/2004/02/skos/core#prefLabel>: string @index(term, exact) .
//	<http://www.w3.org/2004/02/skos/core#notation>: string @index(exact) .
//	<http://schema.org/author>: [uid] @reverse .
//	<http://schema.org/about>: [uid] @reverse .
//	<http://purl.org/dc/terms/subject>: [uid] @reverse .
//	<http://www.w3.org/2004/02/skos/core#broader>: [uid] @reverse .
//	END
//	dgraph bulk -f kg.nq.gz -s kg.schema --map_shards=1 --reduce_shards=1 --zero=localhost:5080
//	dgraph live -f kg.nq.gz -s kg.schema --alpha localhost:9080 --zero localhost:5080
//
// Any RDF store reads the file as it is (Oxigraph, Jena's tdb2.tdbloader,
// GraphDB, Virtuoso's ld_dir); the tests load it into Oxigraph and count
// the papers and authorship links with SPARQL.
//
// # CSV for Neo4j
//
// csv-nodes and csv-edges are the node and relationship files of
// neo4j-admin database import (typed headers; the kind as the label;
// aliases a string array with ";" between items):
//
//	kg export --all --format csv --out kg-csv
//	neo4j-admin database import full --nodes=kg-csv/nodes.csv --relationships=kg-csv/edges.csv neo4j
package export

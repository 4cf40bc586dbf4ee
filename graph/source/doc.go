// Package source reads the input formats kg ingests and turns them into
// graph.Documents. The format is detected from content, never from the file
// name. Every reader reports errors as "file:line: what".
//
// Detected from content, never from the file name:
//
//   - Profile page: a name line, a `Publications` line, then title and abstract lines. The page's
//     owner is an author of every paper on it.
//   - arXiv-subjects listing: `arXiv subjects`, the person's name, optional header lines
//     (`Publications and source records attributed to …`, `At least N records…`), then per record
//     `arXiv<year>`, title, abstract (optional), subject code(s) followed by `↗`.
//   - arXiv metadata JSON lines (Kaggle snapshot layout: `id, submitter, authors, title, comments,
//     journal-ref, doi, report-no, categories, license, abstract, versions, update_date,
//     authors_parsed`), plain or gzip, streamed one paper per line. Authors from `authors_parsed`, else
//     the `authors` string (commas and "and"); every category kept, the first primary; year from the
//     first version, else the id's YYMM, else `update_date`; DOI and journal-ref kept.
//   - arXiv API Atom feeds (what `export.arxiv.org/api/query` returns): one paper per `entry`, id
//     with version, title, summary, `author/name`, `arxiv:primary_category` then `category`,
//     `published`, `arxiv:doi` (or the doi link), `arxiv:journal_ref`. arXiv's "Error" entry is
//     reported, not ingested; broken XML ends the file with its line (earlier entries stand).
//   - BibTeX: entries of any type, braces and quotes, `@string` macros (and the month names), `#`
//     concatenation, nested braces, `@comment`/`@preamble` skipped, LaTeX accents to Unicode
//     (`{\"u}`, `\'{e}`, `{\ss}`), names "Last, First", "Last, Jr, First" and "First Last" joined by
//     `and` ("others" dropped; editors when there is no author), `eprint` + `archivePrefix` (or an
//     "arXiv:…" in journal/note) as the arXiv id, `doi`, `year`, venue. A broken entry (unbalanced
//     braces, undefined macro, no title, no author) is reported with line and key; reading resumes at
//     the next entry. `../shared/data/bibtex/refdb-all.bib`: 5,031 entries, 5,031 papers, 0 skipped
//     (`go test -run RefDB -v ./graph/source`).
//
// CRLF, a BOM, extra blank lines and surrounding spaces are tolerated. A document that does not fit
// its layout fails with `file:line: what was expected`, and nothing of it is written; in a JSON-lines
// file only that line is skipped (malformed JSON, no title or authors, a line over 8 MB).
package source

package graph

// FoldKeySlow is FoldKey without its ASCII fast path, for tests.
func FoldKeySlow(s string) string { return foldUnicode(LatexToText(s)) }

// CleanTextSlow is CleanText without its fast path, for tests.
func CleanTextSlow(s string) string {
	var b []byte
	b = append(b, s...)
	b = append(b, '\x00') // defeats isClean; removed below as a control character
	return CleanText(string(b))
}

// SetCoRecountMin sets how many papers to count make a settle recount
// every co-occurrence pair; the returned function restores it.
func SetCoRecountMin(n int) (restore func()) {
	old := coRecountMin
	coRecountMin = n
	return func() { coRecountMin = old }
}

// SetSettleWrites bounds the writes of a settle's transactions; the
// returned function restores the bound.
func SetSettleWrites(n int) (restore func()) {
	old := settleWrites
	settleWrites = n
	return func() { settleWrites = old }
}

// EvidenceWords is evidenceWords, for tests.
var EvidenceWords = evidenceWords

// IsAbbreviated is isAbbreviated, for tests.
var IsAbbreviated = isAbbreviated

// Store is the service's store, for tests.
func (s *Service) Store() Store { return s.store }

// DecodeProfileLen decodes a stored profile and returns its co-authors.
func DecodeProfileLen(b []byte) (int, error) {
	p, err := decodeProfile(b)
	return len(p.coauthors), err
}

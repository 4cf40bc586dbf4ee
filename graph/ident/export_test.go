package ident

// FoldKeySlow is FoldKey without its ASCII fast path, for tests.
func FoldKeySlow(s string) string { return foldUnicode(LatexToText(s)) }

// CleanTextSlow is CleanText without its fast path, for tests.
func CleanTextSlow(s string) string {
	var b []byte
	b = append(b, s...)
	b = append(b, '\x00') // defeats isClean; removed below as a control character
	return CleanText(string(b))
}

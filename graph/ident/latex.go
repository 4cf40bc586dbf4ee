package ident

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// LatexToText renders the LaTeX that authors leave in titles, abstracts and
// names as readable Unicode text:
//
//	GD$^2$PO                    → GD²PO
//	$T\times I\times R$         → T×I×R
//	\textbf{D}ebiasing          → Debiasing
//	\textit{e.g.}               → e.g.
//	Sch{\"u}tze, \'{E}cole, {\ss} → Schütze, École, ß
//
// Math is only recognised between a balanced pair of $ on the same text, so a
// lone "$5" stays as written. Unknown commands keep their argument and lose
// the backslash. The result is NFC-normalised and space-collapsed.
func LatexToText(s string) string {
	if !strings.ContainsAny(s, `\$`) {
		// No command and no math: braces are left alone too, since plain
		// text ("a set {0, 1}") uses them as written.
		return CleanText(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	p := latexParser{src: s}
	p.run(&b, false, 0)
	return norm.NFC.String(CleanText(b.String()))
}

type latexParser struct {
	src string
	pos int
}

const maxLatexDepth = 64

// run renders until the end of input or an unmatched '}' (consumed).
func (p *latexParser) run(b *strings.Builder, math bool, depth int) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '}' && depth > 0:
			p.pos++
			return
		case c == '{':
			p.pos++
			if depth >= maxLatexDepth {
				continue
			}
			p.run(b, math, depth+1)
		case c == '}':
			p.pos++ // stray closing brace at top level: drop it
		case c == '\\':
			p.command(b, math, depth)
		case c == '$' && !math:
			end := p.mathEnd()
			if end < 0 {
				b.WriteByte('$')
				p.pos++
				continue
			}
			inner := latexParser{src: p.src[p.pos+1 : end]}
			inner.run(b, true, depth+1)
			p.pos = end + 1
		case c == '$':
			p.pos++
		case math && (c == '^' || c == '_'):
			p.pos++
			arg := p.renderArg(math, depth)
			b.WriteString(scriptText(arg, c == '^'))
		case math && c == ' ':
			p.pos++ // spaces in math are layout only
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// mathEnd finds the $ closing the one at p.pos, or -1. "$$" display math is
// treated as one delimiter.
func (p *latexParser) mathEnd() int {
	start := p.pos + 1
	if start < len(p.src) && p.src[start] == '$' {
		return -1
	}
	for i := start; i < len(p.src) && i-start < 400; i++ {
		switch p.src[i] {
		case '\\':
			i++
		case '$':
			if i == start {
				return -1
			}
			return i
		case '\n':
			return -1
		}
	}
	return -1
}

// renderArg renders one argument: a {group}, a \command or a single character.
func (p *latexParser) renderArg(math bool, depth int) string {
	var b strings.Builder
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos >= len(p.src) {
		return ""
	}
	switch p.src[p.pos] {
	case '{':
		p.pos++
		if depth < maxLatexDepth {
			p.run(&b, math, depth+1)
		}
	case '\\':
		p.command(&b, math, depth)
	default:
		_, n := decodeRune(p.src[p.pos:])
		b.WriteString(p.src[p.pos : p.pos+n])
		p.pos += n
	}
	return b.String()
}

func (p *latexParser) command(b *strings.Builder, math bool, depth int) {
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		return
	}
	c := p.src[p.pos]
	// Accent commands are one non-letter: \" \' \` \^ \~ \= \.
	if mark, ok := accentMarks[c]; ok {
		p.pos++
		arg := p.renderArg(math, depth)
		b.WriteString(applyAccent(arg, mark))
		return
	}
	if !isASCIILetter(c) {
		// escaped character: \& \% \$ \_ \# \{ \} \\ and spacing \, \; \!
		p.pos++
		switch c {
		case ',', ';', '!', ':':
			if c != '!' {
				b.WriteByte(' ')
			}
		case '\\':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
		return
	}
	start := p.pos
	for p.pos < len(p.src) && isASCIILetter(p.src[p.pos]) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if mark, ok := letterAccents[name]; ok {
		arg := p.renderArg(math, depth)
		b.WriteString(applyAccent(arg, mark))
		return
	}
	if sym, ok := latexSymbols[name]; ok {
		b.WriteString(sym)
		// A control word eats the spaces after it ("\ss tze" → "sstze"),
		// but "{\ss}" is the usual spelling; keep one space when text follows.
		p.skipSpaceAfterWord()
		return
	}
	if _, ok := switchCommands[name]; ok {
		// {\em text}: a font switch, not a word
		for p.pos < len(p.src) && p.src[p.pos] == ' ' {
			p.pos++
		}
		return
	}
	if _, ok := dropCommands[name]; ok {
		// \cite{..}, \label{..}: drop the command and its argument
		if p.pos < len(p.src) && p.src[p.pos] == '{' {
			p.renderArg(math, depth)
		}
		return
	}
	// Formatting and unknown commands keep their argument: \textbf{D} → D.
	if p.pos < len(p.src) && p.src[p.pos] == '{' {
		b.WriteString(p.renderArg(math, depth))
		return
	}
	b.WriteString(name) // \log, \LaTeX-like words: keep the word
	if math && p.pos < len(p.src) && p.src[p.pos] == ' ' {
		b.WriteByte(' ') // "\log n" reads "log n"; other math spaces are dropped
	}
}

func (p *latexParser) skipSpaceAfterWord() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos < len(p.src) && p.pos > 0 && p.src[p.pos-1] == ' ' && isASCIILetter(p.src[p.pos]) {
		p.pos-- // keep one separating space before a following word
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func decodeRune(s string) (rune, int) {
	for i, r := range s {
		if i == 0 {
			n := len(string(r))
			if r == unicode.ReplacementChar {
				n = 1
			}
			return r, n
		}
	}
	return 0, 0
}

// Combining marks for LaTeX accent commands.
var accentMarks = map[byte]rune{
	'"': '\u0308', '\'': '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', '=': '\u0304', '.': '\u0307',
}

var letterAccents = map[string]rune{
	"c": '\u0327', "v": '\u030C', "u": '\u0306', "H": '\u030B', "k": '\u0328', "r": '\u030A', "d": '\u0323', "b": '\u0331',
}

func applyAccent(arg string, mark rune) string {
	if arg == "" {
		return ""
	}
	r, n := decodeRune(arg)
	if r == 'ı' || r == 'ȷ' {
		r = map[rune]rune{'ı': 'i', 'ȷ': 'j'}[r] // \'{\i} means í
	}
	return norm.NFC.String(string(r) + string(mark) + arg[n:])
}

var latexSymbols = map[string]string{
	"ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
	"aa": "å", "AA": "Å", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ",
	"times": "×", "cdot": "·", "pm": "±", "mp": "∓", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠",
	"approx": "≈", "sim": "∼", "infty": "∞", "to": "→", "rightarrow": "→", "leftarrow": "←", "in": "∈",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
	"eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π",
	"rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	"ldots": "…", "dots": "…", "cdots": "⋯", "textendash": "–", "textemdash": "—", "LaTeX": "LaTeX", "TeX": "TeX",
	"dagger": "†", "ddagger": "‡", "ast": "∗", "star": "⋆", "circ": "∘", "prime": "′", "quad": " ", "qquad": " ", "textasciitilde": "~", "S": "§", "P": "¶", "copyright": "©", "euro": "€",
}

var switchCommands = map[string]struct{}{
	"em": {}, "bf": {}, "it": {}, "sc": {}, "tt": {}, "rm": {}, "sf": {}, "sl": {}, "bfseries": {},
	"itshape": {}, "scshape": {}, "ttfamily": {}, "normalfont": {}, "small": {}, "large": {}, "Large": {},
	"footnotesize": {}, "scriptsize": {}, "tiny": {}, "huge": {}, "normalsize": {}, "relax": {}, "noopsort": {},
}

var dropCommands = map[string]struct{}{
	"cite": {}, "citep": {}, "citet": {}, "label": {}, "ref": {}, "footnote": {}, "url": {},
}

var superscripts = map[rune]rune{
	'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
	'+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', 'n': 'ⁿ', 'i': 'ⁱ', 'T': 'ᵀ', '*': '*',
}

var subscripts = map[rune]rune{
	'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
	'+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎', 'a': 'ₐ', 'e': 'ₑ', 'o': 'ₒ', 'x': 'ₓ', 'h': 'ₕ',
	'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ', 'p': 'ₚ', 's': 'ₛ', 't': 'ₜ', 'i': 'ᵢ', 'j': 'ⱼ', 'r': 'ᵣ', 'u': 'ᵤ', 'v': 'ᵥ',
}

// scriptText renders a super- or subscript with Unicode script characters when
// every character has one, else as "^x" / "_x" (or "^(xy)").
func scriptText(arg string, sup bool) string {
	table := subscripts
	mark := "_"
	if sup {
		table, mark = superscripts, "^"
	}
	var b strings.Builder
	for _, r := range arg {
		s, ok := table[r]
		if !ok {
			if len([]rune(arg)) == 1 {
				return mark + arg
			}
			return mark + "(" + arg + ")"
		}
		b.WriteRune(s)
	}
	return b.String()
}

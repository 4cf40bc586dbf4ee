package ident

import "strings"

// British and American spellings of one word are one concept: ConceptKey
// folds each word to its American spelling, and concept names are shown
// in it (arXiv abstracts use it about four times as often). The rules are
// explicit lists, not open patterns: "supervised", "noise", "promise",
// "analysis" and "hour" must not change, and an -ise/-our/-tre rule
// without a list of stems breaks hundreds of words like them.

// AmericanSpelling returns the American spelling of a lower-case word
// ("optimisation" → "optimization", "behaviours" → "behaviors",
// "modelling" → "modeling", "centre" → "center"); other words come back
// unchanged. Names are shown in it.
func AmericanSpelling(w string) string {
	if bothForms[w] {
		return w
	}
	return spellingKey(w)
}

// bothForms are spellings American writers use as well: keys fold them,
// names keep them as written.
var bothForms = set("dialogue", "dialogues", "catalogue", "catalogues", "analogue", "analogues")

// spellingKey is the spelling a concept key uses for a lower-case word.
func spellingKey(w string) string {
	if len(w) < 4 {
		return w
	}
	if a, ok := britishWords[w]; ok {
		return a
	}
	is, ys := strings.Contains(w, "is"), strings.Contains(w, "ys")
	if is || ys {
		// -is- forms of -ize verbs: optimis|e, optimis|ed, optimis|ation, ...
		for i, sfx := range izeSuffixes {
			if stem, ok := strings.CutSuffix(w, isSuffixes[i]); ok && izeStems[stem] {
				return stem + "iz" + sfx
			}
			// not "analyses": the plural of analysis
			if stem, ok := strings.CutSuffix(w, ysSuffixes[i]); ok && yzeStems[stem] && sfx != "es" {
				return stem + "yz" + sfx
			}
		}
	}
	if strings.Contains(w, "ll") {
		// doubled l before a suffix: modelling, labelled, signalling
		for _, sfx := range llSuffixes {
			// "modelling" is "model" + "l" + "ing"
			if stem, ok := strings.CutSuffix(w, sfx); ok && llStems[stem] {
				return stem + sfx[1:]
			}
		}
	}
	// -our: colour, behaviours, neighbourhood, favourable
	if i := strings.Index(w, "our"); i > 0 && ourStems[w[:i]] {
		return w[:i] + "or" + w[i+3:]
	}
	// -tre: centre, centres, fibre, metres (not "centred": that is listed)
	if strings.HasSuffix(w, "tre") || strings.HasSuffix(w, "tres") {
		if am, ok := tre[strings.TrimSuffix(w, "s")]; ok {
			return am + w[len(strings.TrimSuffix(w, "s")):]
		}
	}
	return w
}

var izeSuffixes = []string{"e", "es", "ed", "ing", "er", "ers", "ation", "ations", "able", "ational"}

// the suffixes above after "is", "ys"; and the doubled-l ones.
var (
	isSuffixes = prefixed("is", izeSuffixes)
	ysSuffixes = prefixed("ys", izeSuffixes)
	llSuffixes = []string{"ling", "led", "ler", "lers"}
)

func prefixed(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

// izeStems take -ize in American spelling (the stem before "is"/"iz").
var izeStems = set(
	"optim", "normal", "regular", "general", "special", "real", "organ", "util", "minim", "maxim",
	"summar", "visual", "character", "categor", "token", "vector", "parameter", "initial", "standard",
	"central", "decentral", "local", "global", "synchron", "serial", "deserial", "emphas", "recogn",
	"anonym", "author", "custom", "personal", "priorit", "stabil", "critic", "modern", "familiar",
	"harmon", "symbol", "memor", "formal", "discret", "quant", "binar", "linear", "factor", "random",
	"amort", "penal", "hypothes", "lemmat", "final", "neutral", "equal", "legal", "material",
	"operational", "contextual", "conceptual", "individual", "industrial", "digital", "democrat",
	"mobil", "sanit", "sensit", "synthes", "theor", "marginal", "polar", "raster", "patron", "fertil",
	"polymer", "crystall", "ion", "colon", "weapon", "social", "rational", "spatial", "temporal",
	"canonical", "lexical", "vocal", "vapor", "immun", "homogen", "jeopard", "apolog", "antagon",
	"subsid", "capital", "commercial", "internal", "external", "natural", "neural", "plural",
	"public", "radical", "textual", "verbal", "vital", "ideal", "modular", "parallel", "templat",
	"styl", "scrutin", "sympath", "pressur", "econom", "fantas", "terror", "energ", "epitom", "idol",
	"magnet", "metabol", "miniatur", "monet", "moral", "motiv", "oxid", "popular", "urban", "mechan",
	"hybrid", "alphabet", "catalog", "diagonal", "dichotom", "digit", "fraction", "functional",
	"incentiv", "institutional", "legitim", "liberal", "nominal", "orthogonal", "paraphras", "pixel",
	"politic", "reorgan", "reparameter", "reoptim", "reconceptual", "recategor", "renormal",
	"resynchron", "revital", "signal", "skeleton", "steril", "subcategor", "tabular", "unitar",
	"victim", "desensit", "destabil", "compartmental", "container", "computer", "mineral",
	"monopol", "spiral", "trivial", "partial", "product", "prior", "dramat", "traumat",
)

// yzeStems take -yze: analyse, paralysed, catalysing.
var yzeStems = set("anal", "paral", "catal", "dial", "electrol", "hydrol", "psychoanal", "reanal")

// llStems double their l before -ing/-ed/-er in British spelling.
var llStems = set("model", "label", "travel", "cancel", "signal", "fuel", "channel", "level",
	"tunnel", "funnel", "counsel", "marshal", "total", "dial", "equal", "rival", "panel", "pedal",
	"jewel", "shovel", "kernel", "parcel", "pixel", "barrel", "quarrel", "marvel", "propel",
	"remodel", "relabel", "unlabel", "mislabel", "cruel", "duel", "grovel", "yodel", "enamel")

// ourStems are the words before "our" in British -our spellings.
var ourStems = set("col", "behavi", "neighb", "fav", "lab", "hon", "hum", "harb", "rum", "tum",
	"flav", "vap", "sav", "endeav", "arm", "od", "vig", "rig", "cand", "clam", "dem", "ferv", "glam",
	"parl", "ranc", "splend", "val", "ard", "misbehavi", "discol", "disfav", "dishon", "multicol",
	"unfav")

var tre = map[string]string{
	"centre": "center", "fibre": "fiber", "metre": "meter", "kilometre": "kilometer",
	"centimetre": "centimeter", "millimetre": "millimeter", "theatre": "theater", "litre": "liter",
	"calibre": "caliber", "spectre": "specter", "lustre": "luster", "sombre": "somber",
	"manoeuvre": "maneuver", "epicentre": "epicenter", "datacentre": "datacenter",
}

// britishWords are the spellings no rule above covers.
var britishWords = map[string]string{
	"centred": "centered", "centring": "centering", "defence": "defense", "defences": "defenses",
	"licence": "license", "licences": "licenses", "offence": "offense", "offences": "offenses",
	"pretence": "pretense", "programme": "program", "programmes": "programs", "grey": "gray",
	"greyscale": "grayscale", "ageing": "aging", "artefact": "artifact", "artefacts": "artifacts",
	"aluminium": "aluminum", "sceptical": "skeptical", "manoeuvres": "maneuvers",
	"manoeuvring": "maneuvering", "oesophagus": "esophagus", "paediatric": "pediatric",
	"orthopaedic": "orthopedic", "encyclopaedia": "encyclopedia", "foetus": "fetus",
	"foetal": "fetal", "haemoglobin": "hemoglobin", "haemorrhage": "hemorrhage",
	"anaemia": "anemia", "anaesthesia": "anesthesia", "oestrogen": "estrogen",
	"leukaemia": "leukemia", "judgement": "judgment", "judgements": "judgments",
	"acknowledgement": "acknowledgment", "enrolment": "enrollment", "fulfil": "fulfill",
	"fulfilment": "fulfillment", "skilful": "skillful", "wilful": "willful", "tyre": "tire",
	"tyres": "tires", "plough": "plow", "draught": "draft", "catalogue": "catalog",
	"catalogues": "catalogs", "dialogue": "dialog", "dialogues": "dialogs", "analogue": "analog",
	"analogues": "analogs", "travelled": "traveled", "travelling": "traveling",
	"traveller": "traveler", "travellers": "travelers", "jewellery": "jewelry",
	"modelled": "modeled", "modeller": "modeler", "cheque": "check", "storey": "story",
	"speciality": "specialty", "mould": "mold", "moulds": "molds", "smoulder": "smolder",
	"sulphur": "sulfur", "practise": "practice", "practised": "practiced", "whilst": "while",
	"amongst": "among", "learnt": "learned", "spelt": "spelled", "burnt": "burned",
	"dreamt": "dreamed", "gaol": "jail", "kerb": "curb", "pyjamas": "pajamas", "axe": "ax",
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

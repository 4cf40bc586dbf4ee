package nlp

import "strings"

// Word lists the candidate rules use. Each is a closed class of scholarly
// English, not a list of topics: none names a concept to find or to hide.

// nominalIng are -ing words that head noun phrases in technical writing
// ("reinforcement learning", "data mining", "image processing", "instruction
// tuning"). The tagger reads many of them as verbs (VBG) some of the time;
// in a noun phrase they are read as nouns, unless an object follows
// ("learning the policy").
//
// Corpus evidence, not a guess: the -ing words seen at least 30 times in the
// first 30,000 abstracts of the arXiv file in ../shared, kept where at least
// 40% of the occurrences follow a singular noun or an adjective (a compound
// head) and at most 8% are followed by a determiner, pronoun, number or
// "that" (a verb taking an object). Dropped by hand: words that are nouns
// anyway or never term heads (anything, ceiling, string, consisting,
// timing, clothing, landing, parking, shopping, talking, bleeding,
// listening, reading, crossing, warning, confounding); added: computing,
// streaming, positioning, networking, crowdsourcing, testing,
// understanding, modelling (short of the threshold, or under 30 uses).
// The evidence: KG_LEXICON=1 go test -run NominalIngEvidence -v ./nlp.
var nominalIng = wordSet(`advertising aging aliasing answering auditing binding blurring browsing
caching calling captioning chunking clipping cloning clustering coding computing conditioning counseling
counting cropping crowdsourcing debiasing deblurring debugging decoding dehazing denoising deraining
downsampling downscaling drafting driving dropping dubbing editing embedding encoding engineering
ensembling farming filtering finetuning forecasting forgetting formatting gating grading grasping
grounding grouping hacking handwriting hashing imaging indexing inpainting jailbreaking labeling
labelling learning licensing lighting linking manufacturing mapping marketing masking matching
merging mining mixing modeling modelling monitoring morphing networking neuroimaging ordering
painting paraphrasing parsing patching phenotyping phrasing planning poisoning pooling positioning
preprocessing pretraining pricing processing profiling programming prompting pruning ranking rating
reasoning relighting rendering reporting reranking resampling retraining reweighting rewriting
routing sampling scaffolding scaling scanning scattering scheduling scoring screening sensing
shading skinning smoothing sorting splatting splitting spoofing spotting staging staining stitching
storytelling streaming subtyping swapping switching tagging teaming testing thinking thresholding
tracking trading training tuning tutoring understanding unlearning unmixing upsampling voting
warping watermarking weighting writing`)

// isNominalIng reports whether a word (or the last part of a hyphenated
// one: "fine-tuning", "post-training") is a nominal -ing head.
func isNominalIng(w string) bool {
	w = strings.ToLower(w)
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		w = w[i+1:]
	}
	return nominalIng[w]
}

// leading are modifiers that open a phrase without narrowing it: they say
// how good, new, many or which ("novel framework", "diverse skills",
// "crucial role", "correct answer"). Dropped from the front of a phrase,
// never the start of a concept.
var leading = wordSet(`novel new proposed extensive strong existing various different significant
substantial first such other several many most more previous prior current recent comprehensive
state-of-the-art simple effective key main additional further specific particular overall remarkable
superior promising competitive diverse multiple numerous broad wide same whole crucial critical
towards toward important single correct distinct essential necessary basic fundamental advanced
desirable meaningful corresponding relevant appropriate suitable powerful reliable better best good
great high-quality sufficient potential possible original certain given respective underlying major
minor typical traditional conventional emerging rapid growing increasing successful valuable useful
practical interesting challenging difficult available resulting subsequent final individual
efficient accurate scalable flexible lightweight versatile generic holistic intuitive innovative
unprecedented notable considerable consistent inferior poor limited large-scale small-scale
real-world specialized dedicated tailored sophisticated complicated various unseen latest extra
improved enhanced suboptimal excellent impressive exceptional outstanding huge vast immense
excessive clear surprising desired integral misleading underexplored unexplored tremendous
enormous massive noticeable obvious evident explicit straightforward reasonable plausible
satisfactory acceptable unique special ideal perfect one two three four five six seven eight nine
ten dozen hundred thousand million`)

// Words that also start real terms stay out of the list ("complex
// network", "general intelligence", "optimal transport", "weak
// supervision", "heterogeneous graph", "modern Hopfield network", "primary
// care", "world model"): a few "complex tasks" among the candidates cost
// less than losing the terms.

// dependent modifiers cannot start a term: they hang on the word before
// them ("uncertainty aware RL", "task specific adapters"). Written apart
// from their head by a hyphen lost at a line break, or by a space.
var dependent = wordSet(`aware based driven guided specific free related oriented dependent
agnostic centric enabled powered conditioned informed inspired assisted intensive friendly`)

// derivedSuffixes end hyphenated modifiers whose first part is a term:
// "deep learning-based", "LLM-driven", "reward model-guided". The phrase
// before the hyphen is a use of that term.
var derivedSuffixes = wordSet(`based driven guided aware free specific level like style wise oriented
enabled powered centric conditioned agnostic augmented enhanced assisted inspired informed dependent
efficient intensive related generated derived induced constrained tuned trained supervised grounded
integrated empowered equipped controlled sensitive invariant specialized adapted`)

// prefixParts are first parts of hyphenated words that are not terms on
// their own ("self-supervised", "multi-agent", "pre-trained").
var prefixParts = wordSet(`self multi pre post non co re anti semi sub inter intra cross over under
out mid uni bi tri de dis mis un in well fine high low long short full half single double zero few
one two three four first second third top end all any ever open close closed state`)

// generic words of the genre are never concepts on their own: every paper
// has a method, a model, results and experiments. The last two lines are
// the single words most often among the arXiv file's key terms that name
// no topic ("language" is in every language model, "object" in every
// object detector).
var generic = wordSet(`method approach paper result experiment state art performance work baseline
way problem task study analysis model system framework improvement issue challenge setting
evaluation effectiveness efficiency use number set case code dataset data benchmark technique
strategy limitation advantage contribution insight finding point level range variety lack need end
time part term impact role ability capability quality accuracy fact order step learning training
application research process mechanism module component scenario solution architecture pipeline
algorithm paradigm tool type example aspect area field domain direction way form manner kind
version design property feature information knowledge value factor condition goal objective
purpose idea concept notion question answer output input source target gap potential advancement
advance progress development success effort demand requirement practice perspective view topic
trend theme literature survey review overview discussion conclusion future researcher user people
author community world year day today recent datum metric score measure outcome effect benefit cost
detail structure element unit item thing something one language object human class word text context
subject reference scale head instance layer sample response parameter region frame group person
environment understanding generalization experience difficulty error interaction appearance scene
action event content representation`)

// genericPhrases are multi-word phrases of the same kind.
var genericPhrases = wordSet(`experimental_result empirical_result state_of_the_art art_performance
percentage_point real_world wide_range large_margin significant_margin source_code case_study
future_work future_research key_insight main_contribution large_number small_number great_potential
growing_interest recent_year recent_advance recent_progress real-world_application
real-world_scenario real-world_setting wide_variety broad_range`)

// isGeneric reports whether a folded phrase is scholarly boilerplate.
func isGeneric(folded string, words int) bool {
	if words == 1 {
		return generic[folded] || len(folded) < 3
	}
	return genericPhrases[strings.ReplaceAll(folded, " ", "_")]
}

// breakWords end a phrase whatever their tag (the tagger calls a
// capitalised "No" a proper noun).
var breakWords = wordSet(`no not yet also however thus hence etc et al i.e. e.g. vs via using based
which whose where while paper abstract both either neither each every all any some this that these
those`)

// stopWords never start or end a mention of a concept; inside one they
// may ("chain of thought", "learning to rank").
var stopWords = wordSet(`a an the and or but nor of in on at to for from by with without into onto
upon about above below between among across through during before after over under than as is are
was were be been being has have had do does did can could may might must shall should will would it
its it's this that these those there here their our your his her we they you i he she them us him
which who whom whose what when where why how not no so such very also only just both each either
neither every all any some other more most less least many much few several same own then thus
hence via vs using based e.g i.e et al etc`)

// functionWords may sit inside an acronym's long form without a letter in
// the acronym ("Debiasing via Information optimization for RM (DIR)").
var functionWords = wordSet(`of for via the and in on with to a an by from`)

func wordSet(s string) map[string]bool {
	f := strings.Fields(s)
	m := make(map[string]bool, len(f))
	for _, w := range f {
		m[strings.TrimSuffix(w, "?")] = true
	}
	return m
}

package burst

// Mix holds what a concept is expected to be used by period by period: the
// papers of each subject in each period, and each concept's papers in
// each subject. A paper of k subjects counts 1/k in each (one without
// counts under none). The concept's rate in a subject over the series,
// times the subject's papers in a period, summed over subjects, is what a
// period holds of the concept when nothing rises.
type Mix struct {
	periods, width int
	perPeriod      []float64 // [period*width + subject]; subject width-1 is none
	perSubject     []float64 // [subject], over all periods
	uses           []float32 // [concept*width + subject]
}

// NewMix holds subjects numbered 0..subjects-1 over periods numbered
// 0..periods-1, for concepts numbered 0..concepts-1.
func NewMix(subjects, periods, concepts int) *Mix {
	w := subjects + 1
	return &Mix{periods: periods, width: w, perPeriod: make([]float64, periods*w), perSubject: make([]float64, w),
		uses: make([]float32, concepts*w)}
}

// AddPaper counts a paper of the given subjects in a period.
func (m *Mix) AddPaper(period int, subjects []uint32) {
	if len(subjects) == 0 {
		m.perPeriod[period*m.width+m.width-1]++
		m.perSubject[m.width-1]++
		return
	}
	f := 1 / float64(len(subjects))
	for _, s := range subjects {
		m.perPeriod[period*m.width+int(s)] += f
		m.perSubject[s] += f
	}
}

// AddUse counts a concept's use by a paper of the given subjects.
func (m *Mix) AddUse(concept int, subjects []uint32) {
	u := m.uses[concept*m.width : (concept+1)*m.width]
	if len(subjects) == 0 {
		u[m.width-1]++
		return
	}
	f := 1 / float32(len(subjects))
	for _, s := range subjects {
		u[s] += f
	}
}

// ExpectedIn is the concept's expected papers in one period.
func (m *Mix) ExpectedIn(concept, period int) float64 {
	e := 0.0
	for s, c := range m.uses[concept*m.width : (concept+1)*m.width] {
		if c != 0 && m.perSubject[s] != 0 {
			e += float64(c) / m.perSubject[s] * m.perPeriod[period*m.width+s]
		}
	}
	return e
}

// Expected writes the concept's expected papers of each period into e
// (of the periods' length).
func (m *Mix) Expected(concept int, e []float64) {
	clear(e)
	for s, c := range m.uses[concept*m.width : (concept+1)*m.width] {
		if c == 0 || m.perSubject[s] == 0 {
			continue
		}
		q := float64(c) / m.perSubject[s]
		for t := range m.periods {
			e[t] += q * m.perPeriod[t*m.width+s]
		}
	}
}

package graph

// Progress hears how the settle after an ingest advances: the stage, and
// how much of it is done of total (total 0: not known ahead). Settling a
// large file takes minutes after its last record (tens of minutes at
// 250,000 papers), and without it a log says nothing all that time.
type Progress func(stage string, done, total int)

// Stages of the settle, as Progress names them.
const (
	StageRescan     = "scanning texts for new concepts"
	StageRescanRead = "texts read for new concepts" // once, after the scan: done texts of total scanned (prints ruled out the rest)
	StageLink       = "linking concepts to earlier papers"
	StageCoOccur    = "counting concept co-occurrence"
	StagePeople     = "clustering people who share a name"
	StageProfiles   = "building co-author profiles"
	StageSettleDone = "settled"
)

// OnProgress sets fn to hear the settle's progress (called on the settle's
// goroutine, at each chunk of its work); nil stops it. Set it before
// ingest starts.
func (s *Service) OnProgress(fn Progress) { s.progress = fn }

func (s *Service) report(stage string, done, total int) {
	if s.progress != nil {
		s.progress(stage, done, total)
	}
}

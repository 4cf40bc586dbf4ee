package graph

import (
	"slices"
	"testing"
)

func TestExtractRepositories(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Code: https://github.com/openai/gym.git.", []string{"https://github.com/openai/gym"}},
		{"See GITHUB.COM/Foo-Bar/baz_ and github.com/foo-bar/BAZ (same)", []string{"https://github.com/Foo-Bar/baz"}},
		{"Available at GitHub.com/a/b, and www.github.com/orgs/x", []string{"https://github.com/a/b"}},
		{"and/or github.com without a path, 1/2 of github", nil},
		{"github.com/", nil},
		{"/github.com/x/y", []string{"https://github.com/x/y"}},
	} {
		var got []string
		for _, r := range extractRepositories(c.text) {
			got = append(got, r.url)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("extractRepositories(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// FuzzMentionsGitHub: the prefilter never hides a link the regexp finds.
func FuzzMentionsGitHub(f *testing.F) {
	for _, s := range []string{"github.com/a/b", "GitHub.COM/x/y", "a/b/c", "github.co/m", "xgithub.com/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if githubRe.MatchString(s) && !mentionsGitHub(s) {
			t.Fatalf("mentionsGitHub(%q) = false, but the regexp matches", s)
		}
	})
}

package schema

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/graphql-go/graphql/gqlerrors"
)

// encodeCases are values graphql-go answers with, and the corners of
// encoding/json's output: HTML escapes, control characters, invalid
// UTF-8, line separators, float forms, nested empties.
var encodeCases = []any{
	nil, "", "plain", `quote " back \ slash`, "<b>&amp;</b>", "tab\tnl\ncr\rbs\bff\f\x00\x1f",
	"Müller, Zoë 🦀", "bad \xff\xfe utf8", "sep \u2028 \u2029", true, false,
	0, -1, 1 << 40, int64(-1 << 62), int32(7), 0.0, math.Copysign(0, -1), 1.5, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789.125, -3.25e-12,
	map[string]any{}, []any{}, map[string]any(nil), []any(nil),
	map[string]any{"b": 1, "a": []any{map[string]any{"z": nil, "y": "x"}, 2.5, "s"}, "<k>": true},
	[]any{[]any{}, map[string]any{"": ""}},
	func() *string { s := "ptr <s>"; return &s }(), (*string)(nil),
	[]string{"typed", "slice"}, struct{ A int }{3},
}

func TestEncodeResponseIsJSONMarshal(t *testing.T) {
	for _, v := range encodeCases {
		checkEncode(t, Response{Data: v})
	}
	checkEncode(t, Response{})
	checkEncode(t, Response{Data: map[string]any{"a": 1}, Errors: []gqlerrors.FormattedError{{Message: "no <such> field"}},
		Extensions: map[string]any{"cost": 12, "took": 0.25}})
	if _, err := encodeResponse(Response{Data: map[string]any{"x": math.NaN()}}); err == nil {
		t.Error("NaN encoded without an error; json.Marshal refuses it")
	}
}

func checkEncode(t testing.TB, r Response) {
	t.Helper()
	want, werr := json.Marshal(r)
	got, gerr := encodeResponse(r)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%#v: error %v, json.Marshal's %v", r.Data, gerr, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%#v:\n got %s\nwant %s", r.Data, got, want)
	}
}

// FuzzEncodeResponse holds encodeResponse to json.Marshal on any JSON
// value (decoded as graphql-go's results are built: maps, lists, strings,
// float64, bools) and on strings of any bytes.
func FuzzEncodeResponse(f *testing.F) {
	for _, v := range encodeCases {
		if b, err := json.Marshal(v); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"data":{"node":{"papers":{"nodes":[{"id":"p1","title":"A \u003c B"}]}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkEncode(t, Response{Data: string(b)})
		var v any
		if json.Unmarshal(b, &v) == nil {
			checkEncode(t, Response{Data: v})
		}
	})
}

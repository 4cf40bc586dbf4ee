package schema

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encodeResponse writes a response as json.Marshal does, byte for byte,
// without its reflection over the data: graphql-go answers with
// map[string]any, []any and scalars, and encoding/json walked them by
// reflection, copying every map key and value (a third of the allocations
// of a page of papers with their authors). Errors and extensions, small
// and rare, still go through encoding/json, as does any value of another
// type. FuzzEncodeResponse holds it to json.Marshal.
func encodeResponse(resp Response) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, '{')
	var err error
	sep := func(name string) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, name...)
	}
	if resp.Data != nil {
		sep(`"data":`)
		if b, err = appendJSON(b, resp.Data); err != nil {
			return nil, err
		}
	}
	if len(resp.Errors) > 0 {
		sep(`"errors":`)
		if b, err = appendMarshal(b, resp.Errors); err != nil {
			return nil, err
		}
	}
	if len(resp.Extensions) > 0 {
		sep(`"extensions":`)
		if b, err = appendJSON(b, resp.Extensions); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSON appends v as json.Marshal would.
func appendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, v), nil
	case *string:
		if v == nil {
			return append(b, "null"...), nil
		}
		return appendJSONString(b, *v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case int32:
		return strconv.AppendInt(b, int64(v), 10), nil
	case float64:
		return appendJSONFloat(b, v)
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendJSON(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return appendMarshal(b, v)
}

func appendMarshal(b []byte, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, enc...), nil
}

// appendJSONFloat formats as encoding/json does: the shortest decimal, in
// exponent form below 1e-6 and from 1e21, with a one-digit negative
// exponent ("1e-7", not "1e-07"). NaN and infinities are its errors.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendMarshal(b, f)
	}
	abs, fmt := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	b = strconv.AppendFloat(b, f, fmt, -1, 64)
	if fmt == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendJSONString quotes s as encoding/json does with its HTML escaping
// on: <, > and & as \u003c, \u003e, \u0026, invalid UTF-8 as \ufffd, and
// U+2028 and U+2029 escaped for JavaScript.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// A testee for `gdmarshal conform` in Go, with nothing but the standard library
// (docs/conformance.md).
//
// It implements part of Godot's binary Variant format (Nil, bool, int, float, String, Vector2,
// Array, Dictionary, PackedByteArray; Godot 3.x and 4.x) in this file, and the testee protocol
// in protocol.go: one JSON object per line on stdin, one answer per line on stdout. What it does
// not handle it answers with "skipped", never with a guess. To wrap your own library, replace
// decodeValue and encodeValue (or call your library from them), say in hello what you handle,
// and keep the protocol part (protocol.go) as it is.
//
//	cd testees/go && go build -o /tmp/gdmarshal-testee-go .
//	gdmarshal conform --testee /tmp/gdmarshal-testee-go --godot 4.6
//
// GDMARSHAL_TESTEE_BROKEN=NAME makes it a deliberately broken variant with one mistake of the bug
// catalogue (bugs.go), e.g. cap-65535: it refuses arrays and dictionaries of more than 65,535
// elements (a 16-bit count), which the stress cases catch.
//
// This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it
// freely.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	flag64   = 1 << 16
	maxDepth = 64
)

// Wire ids of the types handled here, per major version (Godot 4 renumbered the containers).
var typeIDs = map[int]map[string]uint32{
	3: {"Nil": 0, "bool": 1, "int": 2, "float": 3, "String": 4, "Vector2": 5, "Dictionary": 18, "Array": 19, "PackedByteArray": 20},
	4: {"Nil": 0, "bool": 1, "int": 2, "float": 3, "String": 4, "Vector2": 5, "Dictionary": 27, "Array": 28, "PackedByteArray": 29},
}

// idsOf is the table of wire ids of a major version.
func idsOf(major int) map[string]uint32 {
	if bug("container-ids-of-godot-3") {
		return typeIDs[3]
	}
	return typeIDs[major]
}

// Number of types each major version has: ids from here up are not types at all.
var variantMax = map[int]uint32{3: 27, 4: 39}

// hello is the handshake answer: what this testee is and what it handles.
func hello() helloAnswer {
	name := "gdmarshal-testee-go (example)"
	if broken != "" {
		name += " (broken: " + broken + ")"
	}
	return helloAnswer{
		Name:         name,
		Protocol:     1,
		Versions:     []string{"3", "4"},
		Capabilities: []string{"decode", "encode", "reencode"},
		Types:        []string{"Nil", "bool", "int", "float", "String", "Vector2", "Array", "Dictionary", "PackedByteArray"},
	}
}

// Node is a value in tagged JSON (docs/tagged-json.md) as the decoder writes it. Value holds a
// bool, a string (int, float, String, PackedByteArray), []string (Vector2), []*Node (Array) or
// [][2]*Node (Dictionary), or nothing (Nil).
type Node struct {
	Type  string      `json:"type"`
	Value interface{} `json:"value,omitempty"`
}

// skipError answers "skipped": the case is outside what this testee handles.
type skipError string

func (e skipError) Error() string { return string(e) }

// rejectError is a refusal of the input, with its kind (docs/conformance.md, "decode").
type rejectError struct{ msg, kind string }

func (e rejectError) Error() string { return e.msg }

func skipf(format string, args ...interface{}) error {
	return skipError(fmt.Sprintf(format, args...))
}

func rejectf(kind, format string, args ...interface{}) error {
	return rejectError{fmt.Sprintf(format, args...), kind}
}

// capped is the deliberate defect of the broken variant.
func capped(n int) error {
	if bug("cap-65535") && n > 65535 {
		return rejectf("bad-count", "more than 65,535 elements are not supported")
	}
	return nil
}

// ---- floats as tagged-JSON tokens (exact: bits survive) ----

func f64Token(x float64) string {
	switch {
	case math.IsNaN(x) && bug("nan-payload-lost"):
		return "nan"
	case math.IsNaN(x):
		return fmt.Sprintf("0x%016x", math.Float64bits(x)) // keeps the payload
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0 && math.Signbit(x) && !bug("negative-zero-lost"):
		return "-0"
	}
	// The shortest decimal that reads back to the same double, spelled as JavaScript does:
	// plain from 1e-6 up to 1e21, else with an exponent ("1e-7", not Go's "1e-07").
	if a := math.Abs(x); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	mantissa, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	return fmt.Sprintf("%se%+d", mantissa, e)
}

// parseDecimal reads a decimal, inf or -inf token at the given width (32 or 64 bits).
func parseDecimal(token string, bitSize int) (float64, error) {
	x, err := strconv.ParseFloat(token, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // too large is ±inf, as wanted
		return 0, fmt.Errorf("bad float token %q", token)
	}
	return x, nil
}

// tokenValue is a float token's value, whatever its spelling (decimal or 0x bits of an f32 or
// an f64).
func tokenValue(token string) (float64, error) {
	if strings.HasPrefix(token, "0x") {
		bits, err := strconv.ParseUint(token[2:], 16, 64)
		if err != nil {
			return 0, fmt.Errorf("bad float token %q", token)
		}
		if len(token) > 10 {
			return math.Float64frombits(bits), nil
		}
		return float64(math.Float32frombits(uint32(bits))), nil
	}
	return parseDecimal(token, 64)
}

// tokenBits is the bit pattern of a float token at width 32 or 64.
func tokenBits(token string, bitSize int) (uint64, error) {
	if strings.HasPrefix(token, "0x") {
		bits, err := strconv.ParseUint(token[2:], 16, bitSize)
		if err != nil {
			return 0, fmt.Errorf("bad float token %q for a %d-bit float", token, bitSize)
		}
		if bug("nan-payload-lost") && bits != canonicalNaN(bitSize) &&
			((bitSize == 32 && math.IsNaN(float64(math.Float32frombits(uint32(bits))))) ||
				(bitSize == 64 && math.IsNaN(math.Float64frombits(bits)))) {
			return canonicalNaN(bitSize), nil
		}
		return bits, nil
	}
	if token == "nan" { // the canonical quiet NaN, which Go's own NaN is not
		return canonicalNaN(bitSize), nil
	}
	x, err := parseDecimal(token, bitSize)
	if err != nil {
		return 0, err
	}
	if x == 0 && bug("negative-zero-lost") {
		x = 0
	}
	if bitSize == 32 {
		return uint64(math.Float32bits(float32(x))), nil
	}
	return math.Float64bits(x), nil
}

func canonicalNaN(bitSize int) uint64 {
	if bitSize == 32 {
		return 0x7fc00000
	}
	return 0x7ff8000000000000
}

// fitsF32 says whether x survives the round trip through f32, as Godot checks.
func fitsF32(x float64) bool {
	if math.IsInf(x, 0) {
		return true
	}
	return math.Abs(x) <= math.MaxFloat32 && float64(float32(x)) == x
}

// floatKey is a float as a Dictionary key: by value, so 0 and -0 are one key, and so are all NaNs.
func floatKey(token string) interface{} {
	x, _ := tokenValue(token) // a token this decoder wrote always reads back
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		return 0.0
	}
	return x
}

// keyIdentity is what makes two Dictionary keys one key for the engines: equal values. Keys
// with equal identities marshal to the same JSON.
func keyIdentity(n *Node) interface{} {
	switch v := n.Value.(type) {
	case []*Node: // Array
		ids := []interface{}{n.Type}
		for _, item := range v {
			ids = append(ids, keyIdentity(item))
		}
		return ids
	case [][2]*Node: // Dictionary
		ids := []interface{}{n.Type}
		for _, p := range v {
			ids = append(ids, []interface{}{keyIdentity(p[0]), keyIdentity(p[1])})
		}
		return ids
	case []string: // Vector2
		return []interface{}{n.Type, floatKey(v[0]), floatKey(v[1])}
	}
	if n.Type == "float" {
		return []interface{}{n.Type, floatKey(n.Value.(string))}
	}
	return n
}

// ---- decode ----

type reader struct {
	data []byte
	pos  int
}

func (r *reader) take(n int) ([]byte, error) {
	if n >= 0 && n <= 1<<20 && r.pos+n > len(r.data) && bug("truncation-zero-filled") {
		b := make([]byte, n)
		if r.pos < len(r.data) {
			copy(b, r.data[r.pos:])
		}
		r.pos += n
		return b, nil
	}
	if n < 0 || r.pos+n > len(r.data) {
		return nil, rejectf("truncated", "truncated at offset %d: %d bytes wanted", r.pos, n)
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

func (r *reader) u32() (uint32, error) {
	b, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// count reads a length. One the bytes left cannot hold (with its padding, for a String) is the
// engine's "bad count", not a truncation.
func (r *reader) count(what string, padded bool) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	pad := 0
	if padded {
		pad = padding(int(n % 4))
	}
	left := int64(len(r.data) - r.pos)
	tooLong := int64(n)+int64(pad) > left && !bug("long-count-as-truncation")
	if n > 0x7fffffff || tooLong {
		return 0, rejectf("bad-count", "%s %d does not fit in the %d bytes left", what, n, left)
	}
	return int(n), nil
}

// padding is the number of bytes that pad n bytes to a multiple of 4.
func padding(n int) int {
	return (4 - n%4) % 4
}

func typeName(major int, id uint32) (string, bool) {
	for name, i := range idsOf(major) {
		if i == id {
			return name, true
		}
	}
	return "", false
}

// decodeValue reads one value as bytes_to_var (bytes2var in 3.x) would.
func decodeValue(r *reader, major, depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, skipf("nesting deeper than %d", maxDepth)
	}
	header, err := r.u32()
	if err != nil {
		return nil, err
	}
	typeID := header & 0xff
	if typeID >= variantMax[major] {
		if bug("unknown-type-as-nil") {
			return &Node{Type: "Nil"}, nil
		}
		return nil, rejectf("bad-type", "unknown type id %d", typeID)
	}
	name, ok := typeName(major, typeID)
	if !ok {
		return nil, skipf("type id %d is not implemented here", typeID)
	}
	wide := header&flag64 != 0
	oddFlags := header&0xff00 != 0 || (header>>16)&^1 != 0 || (wide && name != "int" && name != "float")
	if oddFlags && !bug("typed-container-flags-ignored") {
		return nil, skipf("header flags are not handled here")
	}
	switch name {
	case "Nil":
		return &Node{Type: name}, nil
	case "bool":
		v, err := r.u32()
		if err != nil {
			return nil, err
		}
		if bug("bool-one-only") {
			return &Node{name, v == 1}, nil
		}
		return &Node{name, v != 0}, nil
	case "int":
		return decodeInt(r, wide)
	case "float":
		return decodeFloat(r, wide)
	case "String":
		return decodeString(r)
	case "Vector2":
		return decodeVector2(r)
	case "Array":
		return decodeArray(r, major, depth)
	case "Dictionary":
		return decodeDictionary(r, major, depth)
	case "PackedByteArray":
		n, err := r.count("byte count", false)
		if err != nil {
			return nil, err
		}
		raw, err := r.take(n)
		if err != nil {
			return nil, err
		}
		// The engines do not check that the padding is there, but count it as consumed.
		if !bug("bytes-padding-unconsumed") {
			r.pos += padding(n)
		}
		return &Node{name, hex.EncodeToString(raw)}, nil
	}
	return nil, skipError(name)
}

func decodeInt(r *reader, wide bool) (*Node, error) {
	if wide && !bug("int-flag-ignored") {
		b, err := r.take(8)
		if err != nil {
			return nil, err
		}
		return &Node{"int", strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)}, nil
	}
	v, err := r.u32()
	if err != nil {
		return nil, err
	}
	if bug("int-unsigned") {
		return &Node{"int", strconv.FormatUint(uint64(v), 10)}, nil
	}
	return &Node{"int", strconv.FormatInt(int64(int32(v)), 10)}, nil
}

// decodeVector2 reads two f32 components, x then y.
func decodeVector2(r *reader) (*Node, error) {
	width := 4
	if bug("vector2-double-width") {
		width = 8
	}
	b, err := r.take(2 * width)
	if err != nil {
		return nil, err
	}
	bits := func(i int) string {
		if width == 8 {
			x := math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:]))
			return fmt.Sprintf("0x%08x", math.Float32bits(float32(x)))
		}
		return fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b[i*4:]))
	}
	if bug("vector2-swapped") {
		return &Node{"Vector2", []string{bits(1), bits(0)}}, nil
	}
	return &Node{"Vector2", []string{bits(0), bits(1)}}, nil
}

func decodeFloat(r *reader, wide bool) (*Node, error) {
	if wide && !bug("float-flag-ignored") {
		b, err := r.take(8)
		if err != nil {
			return nil, err
		}
		return &Node{"float", f64Token(math.Float64frombits(binary.LittleEndian.Uint64(b)))}, nil
	}
	v, err := r.u32()
	if err != nil {
		return nil, err
	}
	x := float64(math.Float32frombits(v))
	if math.IsNaN(x) {
		return nil, skipf("f32 NaN widening is not handled here")
	}
	return &Node{"float", f64Token(x)}, nil
}

func decodeString(r *reader) (*Node, error) {
	n, err := r.count("string length", true)
	if err != nil {
		return nil, err
	}
	raw, err := r.take(n)
	if err != nil {
		return nil, err
	}
	if !bug("string-padding-unskipped") {
		if _, err := r.take(padding(n)); err != nil {
			return nil, err
		}
	}
	if bytes.IndexByte(raw, 0) >= 0 || bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, skipf("NUL bytes and byte-order marks are not handled here")
	}
	if !utf8.Valid(raw) {
		if bug("invalid-utf8-replaced") {
			return &Node{"String", strings.ToValidUTF8(string(raw), "\uFFFD")}, nil
		}
		return nil, skipf("invalid UTF-8 is not handled here")
	}
	return &Node{"String", string(raw)}, nil
}

// elementCount reads a container's count: bit 31 is the engines' old "shared" flag, not part
// of it.
func elementCount(r *reader) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	count := int(n & 0x7fffffff)
	if bug("shared-bit-kept") {
		count = int(n)
	}
	return count, capped(count)
}

// capacity bounds what a count preallocates: a count the bytes cannot hold fails later.
func capacity(r *reader, count int) int {
	left := (len(r.data) - r.pos) / 4
	if left < 0 {
		return 0
	}
	if count > left {
		return left
	}
	return count
}

func decodeArray(r *reader, major, depth int) (*Node, error) {
	count, err := elementCount(r)
	if err != nil {
		return nil, err
	}
	items := make([]*Node, 0, capacity(r, count))
	for i := 0; i < count; i++ {
		item, err := decodeValue(r, major, depth+1)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return &Node{"Array", items}, nil
}

func decodeDictionary(r *reader, major, depth int) (*Node, error) {
	count, err := elementCount(r)
	if err != nil {
		return nil, err
	}
	pairs := make([][2]*Node, 0, capacity(r, count))
	seen := make(map[string]bool)
	for i := 0; i < count; i++ {
		k, err := decodeValue(r, major, depth+1)
		if err != nil {
			return nil, err
		}
		v, err := decodeValue(r, major, depth+1)
		if err != nil {
			return nil, err
		}
		// The engine keeps one entry per key: a duplicate would change the value.
		id, err := json.Marshal(keyIdentity(k))
		if err != nil {
			return nil, err
		}
		if seen[string(id)] && !bug("duplicate-keys-kept") {
			return nil, skipf("duplicate dictionary keys are not handled here")
		}
		seen[string(id)] = true
		pairs = append(pairs, [2]*Node{k, v})
	}
	if bug("dictionary-sorted") {
		sort.SliceStable(pairs, func(i, j int) bool { return jsonOf(pairs[i][0]) < jsonOf(pairs[j][0]) })
	}
	return &Node{"Dictionary", pairs}, nil
}

// ---- encode ----

// encodeValue appends one value, given as tagged JSON read by encoding/json (with UseNumber),
// to out as var_to_bytes (var2bytes in 3.x) would.
func encodeValue(value interface{}, major int, out []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, skipf("nesting deeper than %d", maxDepth)
	}
	v, ok := value.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("a value is not a JSON object")
	}
	name, _ := v["type"].(string)
	switch name {
	case "PoolByteArray":
		name = "PackedByteArray"
	case "Real":
		name = "float"
	}
	id, ok := idsOf(major)[name]
	if !ok {
		return nil, skipf("type %s is not implemented here", name)
	}
	le := binary.LittleEndian
	switch name {
	case "Nil":
		return le.AppendUint32(out, id), nil
	case "bool":
		b, ok := v["value"].(bool)
		if !ok {
			return nil, fmt.Errorf("bool value is not true or false")
		}
		if b {
			return le.AppendUint32(le.AppendUint32(out, id), 1), nil
		}
		return le.AppendUint32(le.AppendUint32(out, id), 0), nil
	case "int":
		return encodeInt(v["value"], id, out)
	case "float":
		return encodeFloat(v["value"], id, out)
	case "String":
		s, ok := v["value"].(string)
		if !ok {
			return nil, skipf(`3.x strings of code units ({"code_units": [...]}) are not handled here`)
		}
		return appendString(le.AppendUint32(out, id), s), nil
	case "Vector2":
		return encodeVector2(v["value"], id, out)
	case "Array":
		if _, typed := v["element_type"]; typed {
			return nil, skipf("typed arrays are not implemented here")
		}
		return encodeArray(v["value"], id, major, out, depth)
	case "Dictionary":
		_, typedKeys := v["key_type"]
		_, typedValues := v["value_type"]
		if typedKeys || typedValues {
			return nil, skipf("typed dictionaries are not implemented here")
		}
		return encodeDictionary(v["value"], id, major, out, depth)
	case "PackedByteArray":
		s, ok := v["value"].(string)
		raw, err := hex.DecodeString(s)
		if !ok || err != nil {
			return nil, fmt.Errorf("PackedByteArray value is not a hex string")
		}
		pad := padding(len(raw))
		if bug("bytes-unpadded") {
			pad = 0
		}
		return appendPadded(le.AppendUint32(out, id), len(raw), raw, pad), nil
	}
	return nil, skipError(name)
}

// appendString appends a String's length in bytes, its UTF-8 and the padding to a multiple of 4.
func appendString(out []byte, s string) []byte {
	raw := []byte(s)
	length, pad := len(raw), padding(len(raw))
	if bug("string-length-in-runes") {
		length = utf8.RuneCount(raw)
	}
	if bug("string-unpadded") {
		pad = 0
	}
	if bug("string-pad-when-aligned") {
		pad = 4 - len(raw)%4
	}
	return appendPadded(out, length, raw, pad)
}

// appendPadded appends a length, the bytes and pad zero bytes.
func appendPadded(out []byte, length int, raw []byte, pad int) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(length))
	out = append(out, raw...)
	return append(out, make([]byte, pad)...)
}

// jsonOf is a value's JSON, the order of the bug catalogue's sorted dictionaries.
func jsonOf(v interface{}) string {
	text, _ := json.Marshal(v)
	return string(text)
}

// encodeInt writes 32 bits when the value fits, else 64 bits with the 64-bit flag, as Godot.
func encodeInt(value interface{}, id uint32, out []byte) ([]byte, error) {
	var text string
	switch v := value.(type) {
	case string:
		text = v
	case json.Number: // an exact JSON integer is accepted too
		text = v.String()
	}
	x, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("int value %v is not a 64-bit integer", value)
	}
	le := binary.LittleEndian
	small := x >= math.MinInt32 && x <= math.MaxInt32
	if bug("int-threshold-unsigned") {
		small = x > -(1<<32) && x < 1<<32
	}
	if small && !bug("int-always-64") {
		return le.AppendUint32(le.AppendUint32(out, id), uint32(int32(x))), nil
	}
	return le.AppendUint64(le.AppendUint32(out, id|flag64), uint64(x)), nil
}

// encodeFloat writes 32 bits when the value survives the round trip through f32, as Godot;
// otherwise (and for every NaN) the 64 bits as given.
func encodeFloat(value interface{}, id uint32, out []byte) ([]byte, error) {
	token, _ := value.(string)
	bits, err := tokenBits(token, 64)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	x := math.Float64frombits(bits)
	if bug("float-always-32") || (!math.IsNaN(x) && fitsF32(x) && !bug("float-always-64")) {
		return le.AppendUint32(le.AppendUint32(out, id), math.Float32bits(float32(x))), nil
	}
	return le.AppendUint64(le.AppendUint32(out, id|flag64), bits), nil
}

func encodeVector2(value interface{}, id uint32, out []byte) ([]byte, error) {
	tokens, _ := value.([]interface{})
	if len(tokens) != 2 {
		return nil, fmt.Errorf("Vector2 value is not 2 float tokens")
	}
	out = binary.LittleEndian.AppendUint32(out, id)
	for _, t := range tokens {
		token, _ := t.(string)
		bits, err := tokenBits(token, 32)
		if err != nil {
			return nil, err
		}
		if bug("vector2-double-width") {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(math.Float32frombits(uint32(bits)))))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(bits))
		}
	}
	return out, nil
}

func encodeArray(value interface{}, id uint32, major int, out []byte, depth int) ([]byte, error) {
	items, ok := value.([]interface{})
	if !ok {
		return nil, fmt.Errorf("Array value is not a JSON array")
	}
	if err := capped(len(items)); err != nil {
		return nil, err
	}
	out = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(out, id), uint32(len(items)))
	for _, item := range items {
		var err error
		if out, err = encodeValue(item, major, out, depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func encodeDictionary(value interface{}, id uint32, major int, out []byte, depth int) ([]byte, error) {
	pairs, ok := value.([]interface{})
	if !ok {
		return nil, fmt.Errorf("Dictionary value is not a JSON array")
	}
	if err := capped(len(pairs)); err != nil {
		return nil, err
	}
	count := len(pairs)
	if bug("dictionary-count-doubled") {
		count *= 2
	}
	if bug("dictionary-sorted") {
		pairs = sortedPairs(pairs)
	}
	out = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(out, id), uint32(count))
	for _, p := range pairs {
		pair, ok := p.([]interface{})
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("a Dictionary entry is not a [key, value] pair")
		}
		for _, x := range pair {
			var err error
			if out, err = encodeValue(x, major, out, depth+1); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// sortedPairs is a copy of pairs in the order of their keys' JSON (the catalogue's dictionary-sorted).
func sortedPairs(pairs []interface{}) []interface{} {
	sorted := append([]interface{}{}, pairs...)
	key := func(p interface{}) string {
		if pair, ok := p.([]interface{}); ok && len(pair) == 2 {
			return jsonOf(pair[0])
		}
		return ""
	}
	sort.SliceStable(sorted, func(i, j int) bool { return key(sorted[i]) < key(sorted[j]) })
	return sorted
}

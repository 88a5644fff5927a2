// The testee protocol of `gdmarshal conform` (docs/conformance.md, "The testee protocol
// (version 1)"): keep this part when you wrap your own library. It calls hello, decodeValue and
// encodeValue in main.go (and bug, of the bug catalogue in bugs.go).
//
// This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it
// freely.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// request is one line from the runner. Value keeps JSON numbers as json.Number, so that no
// 64-bit integer is rounded.
type request struct {
	ID      json.RawMessage `json:"id"`
	Op      string          `json:"op"`
	Godot   string          `json:"godot"`
	Objects bool            `json:"objects"`
	Input   string          `json:"input"`
	Value   interface{}     `json:"value"`
}

type helloAnswer struct {
	Name         string   `json:"name"`
	Protocol     int      `json:"protocol"`
	Versions     []string `json:"versions"`
	Capabilities []string `json:"capabilities"`
	Types        []string `json:"types"`
}

// reply is an answer to a decode or encode request: ok (with value and consumed, or output),
// not ok (with error and kind), or skipped.
type reply struct {
	ID       json.RawMessage `json:"id,omitempty"`
	OK       *bool           `json:"ok,omitempty"`
	Value    *Node           `json:"value,omitempty"`
	Consumed int             `json:"consumed,omitempty"`
	Output   string          `json:"output,omitempty"`
	Error    string          `json:"error,omitempty"`
	Kind     string          `json:"kind,omitempty"`
	Skipped  string          `json:"skipped,omitempty"`
}

func okReply(id json.RawMessage) reply {
	ok := true
	return reply{ID: id, OK: &ok}
}

// errorReply turns an error into its answer: a skip, a refusal with its kind, or (for a
// request this testee cannot read) a refusal without one.
func errorReply(id json.RawMessage, err error) reply {
	var skip skipError
	if errors.As(err, &skip) {
		return reply{ID: id, Skipped: skip.Error()}
	}
	ok := false
	r := reply{ID: id, OK: &ok, Error: err.Error()}
	var reject rejectError
	if errors.As(err, &reject) {
		r.Kind = reject.kind
	}
	return r
}

func answer(req *request) interface{} {
	if req.Op == "hello" {
		return hello()
	}
	godot := req.Godot
	if godot == "" {
		godot = "4"
	}
	major, err := strconv.Atoi(strings.SplitN(godot, ".", 2)[0])
	if err != nil || typeIDs[major] == nil || strings.Contains(godot, "-double") {
		return reply{ID: req.ID, Skipped: "only single-precision 3.x and 4.x"}
	}
	if req.Objects {
		return reply{ID: req.ID, Skipped: "objects are not implemented here"}
	}
	switch req.Op {
	case "decode":
		data, err := hex.DecodeString(req.Input)
		if err != nil {
			return errorReply(req.ID, fmt.Errorf("input is not hex: %v", err))
		}
		r := &reader{data: data}
		value, err := decodeValue(r, major, 0)
		if err == nil && r.pos < len(data) && bug("trailing-bytes-rejected") {
			err = rejectf("bad-value", "%d bytes after the value", len(data)-r.pos)
		}
		if err != nil {
			return errorReply(req.ID, err)
		}
		if bug("trailing-bytes-consumed") {
			r.pos = len(data)
		}
		ans := okReply(req.ID)
		ans.Value, ans.Consumed = value, r.pos
		return ans
	case "encode":
		out, err := encodeValue(req.Value, major, nil, 0)
		if err != nil {
			return errorReply(req.ID, err)
		}
		ans := okReply(req.ID)
		ans.Output = hex.EncodeToString(out)
		return ans
	}
	return errorReply(req.ID, fmt.Errorf("unknown op %s", req.Op))
}

func parseRequest(line []byte) (*request, error) {
	// encoding/json reads up to 10,000 levels: requests nest up to 2,048.
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var req request
	if err := dec.Decode(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// main answers each line in order, one line each, flushed at once: the runner waits for each
// answer before it sends the next request. It exits when the runner closes stdin.
func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out) // one compact line per answer
	enc.SetEscapeHTML(false)
	for {
		line, readErr := in.ReadBytes('\n') // no line length limit: stress requests are megabytes
		if len(bytes.TrimSpace(line)) > 0 {
			req, err := parseRequest(line)
			if err != nil {
				fatal(fmt.Errorf("a request that is not JSON: %v", err))
			}
			if err := enc.Encode(answer(req)); err != nil {
				fatal(err)
			}
			if err := out.Flush(); err != nil {
				fatal(err)
			}
		}
		if readErr == io.EOF {
			return
		}
		if readErr != nil {
			fatal(readErr)
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gdmarshal-testee-go: error:", err)
	os.Exit(1)
}

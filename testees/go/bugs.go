// The bug catalogue: mistakes implementers of the format make, each one a deliberately broken
// variant of this kit chosen with GDMARSHAL_TESTEE_BROKEN=NAME (pass it to the testee with
// `gdmarshal conform --testee-env GDMARSHAL_TESTEE_BROKEN`). Each variant must fail conform; the
// table "Bug catalogue" in gdmarshal's docs/conformance.md counts the cases that catch each one.
// `gdmarshal-testee-go --list-bugs` prints the catalogue: name, majors, the cases that show it
// (all but the stress cases, or the stress cases) and what is wrong, separated by tabs.
//
// Delete this file and the bug(...) conditions in main.go when you wire in your own library.
//
// This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it
// freely.
package main

import (
	"fmt"
	"os"
	"strings"
)

// knownBug is one entry of the catalogue.
type knownBug struct {
	name string
	// The Godot major versions the mistake can show on ("3 4", or one of them).
	majors string
	// What the broken variant gets wrong.
	what string
	// Whether only the stress cases (megabytes each) can show it.
	stress bool
}

var catalogue = []knownBug{
	{"cap-65535", "3 4", "refuses arrays and dictionaries of more than 65,535 elements (a 16-bit count)", true},
	{"int-flag-ignored", "3 4", "decode: reads every int as 32 bits, ignoring the 64-bit flag", false},
	{"int-unsigned", "3 4", "decode: reads 32-bit ints as unsigned", false},
	{"int-threshold-unsigned", "3 4", "encode: writes an int in 32 bits whenever its magnitude fits in 32 unsigned bits", false},
	{"int-always-64", "3 4", "encode: writes every int in 64 bits", false},
	{"float-flag-ignored", "3 4", "decode: reads every float as 32 bits, ignoring the 64-bit flag", false},
	{"float-always-64", "3 4", "encode: writes every float in 64 bits", false},
	{"float-always-32", "3 4", "encode: writes every float in 32 bits, rounding what does not fit", false},
	{"negative-zero-lost", "3 4", "decode and encode: -0.0 becomes 0.0", false},
	{"nan-payload-lost", "3 4", "decode and encode: every NaN becomes the canonical quiet NaN", false},
	{"vector2-swapped", "3 4", "decode: reads a Vector2's components as y, x", false},
	{"vector2-double-width", "3 4", "decode and encode: Vector2 components in 64 bits on a single-precision engine", false},
	{"bool-one-only", "3 4", "decode: true only when the 32-bit value is 1", false},
	{"string-padding-unskipped", "3 4", "decode: does not skip the padding after a String", false},
	{"string-unpadded", "3 4", "encode: writes no padding after a String", false},
	{"string-pad-when-aligned", "3 4", "encode: pads a String whose length is a multiple of 4 with 4 more bytes", false},
	{"string-length-in-runes", "3 4", "encode: writes a String's length in characters, not UTF-8 bytes", false},
	{"invalid-utf8-replaced", "3 4", "decode: accepts invalid UTF-8, replacing each bad sequence with U+FFFD", false},
	{"bytes-padding-unconsumed", "3 4", "decode: leaves a PackedByteArray's padding out of the bytes consumed", false},
	{"bytes-unpadded", "3 4", "encode: writes no padding after a PackedByteArray", false},
	{"unknown-type-as-nil", "3 4", "decode: reads a type id past the last type as Nil instead of refusing it", false},
	{"shared-bit-kept", "3 4", "decode: reads bit 31 of a container's count as part of the count", false},
	{"truncation-zero-filled", "3 4", "decode: reads missing bytes at the end of the input as zeros", false},
	{"long-count-as-truncation", "3 4", "decode: calls a length longer than the bytes left a truncation, not a bad count", false},
	{"trailing-bytes-rejected", "3 4", "decode: refuses input with bytes after the value", false},
	{"trailing-bytes-consumed", "3 4", "decode: counts the bytes after the value as consumed", false},
	{"dictionary-sorted", "3 4", "decode and encode: Dictionary entries in key order, not insertion order", false},
	{"dictionary-count-doubled", "3 4", "encode: writes a Dictionary's count as keys plus values", false},
	{"duplicate-keys-kept", "3 4", "decode: keeps every entry of a repeated Dictionary key", false},
	{"typed-container-flags-ignored", "4", "decode: ignores the header bits that make an Array or Dictionary typed (and a Vector2 64-bit) on Godot 4", false},
	{"container-ids-of-godot-3", "4", "decode and encode: Godot 3's type ids for Dictionary, Array and PackedByteArray on Godot 4", false},
}

var broken = os.Getenv("GDMARSHAL_TESTEE_BROKEN")

// bug says whether the running variant is the one with this mistake.
func bug(name string) bool {
	return broken == name
}

func init() {
	if len(os.Args) > 1 && os.Args[1] == "--list-bugs" {
		for _, b := range catalogue {
			cases := "all but stress"
			if b.stress {
				cases = "stress"
			}
			fmt.Printf("%s\t%s\t%s\t%s\n", b.name, b.majors, cases, b.what)
		}
		os.Exit(0)
	}
	if broken == "" {
		return
	}
	names := make([]string, len(catalogue))
	for i, b := range catalogue {
		if b.name == broken {
			return
		}
		names[i] = b.name
	}
	fatal(fmt.Errorf("GDMARSHAL_TESTEE_BROKEN=%s is not in the catalogue: %s",
		broken, strings.Join(names, ", ")))
}

package planner

import (
	"strconv"
	"strings"
)

// dumpedBy is the line of a pg_dump header that names the pg_dump version.
const dumpedBy = "-- Dumped by pg_dump version "

// dumpNotice returns a notice when text starts with the header of a dump
// made by a pg_dump newer than 15, whose output Mallard restores on a
// best-effort basis: such a dump may use syntax and settings that Mallard,
// which speaks as PostgreSQL 15, does not know. psql does not send the
// comments before a statement, so only a client that sends the dump's
// text as it is (a driver's simple query) shows the header.
func dumpNotice(text string) string {
	i := strings.Index(text, dumpedBy)
	if i < 0 || !onlyComments(text[:i]) {
		return ""
	}
	version := text[i+len(dumpedBy):]
	if end := strings.IndexAny(version, " \n\r("); end >= 0 {
		version = version[:end]
	}
	major, err := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
	if err != nil || major <= 15 {
		return ""
	}
	return "this dump was made by pg_dump " + version + ", newer than the PostgreSQL 15 that Mallard speaks as: it is restored on a best-effort basis"
}

// onlyComments reports whether text holds nothing but -- comments and space.
func onlyComments(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") {
			return false
		}
	}
	return true
}

package sqlfront

import (
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlstate"
)

// errorResponse renders err as the message Postgres sends.
func errorResponse(err *sqlstate.Error) *pgproto3.ErrorResponse {
	err = clientSafe(err)
	sev := err.Severity
	if sev == "" {
		sev = "ERROR"
	}
	r := &pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                string(err.Code),
		Message:             err.Message,
		Detail:              err.Detail,
		Hint:                err.Hint,
		Where:               err.Where,
	}
	if err.Position > 0 {
		r.Position = int32(err.Position)
	}
	return r
}

// noticeResponse renders a NOTICE or WARNING.
func noticeResponse(severity string, code sqlstate.Code, msg string) *pgproto3.NoticeResponse {
	return &pgproto3.NoticeResponse{Severity: severity, SeverityUnlocalized: severity, Code: string(code), Message: msg}
}

// commandTag renders a CommandComplete tag with an optional row count.
func commandTag(tag string, n int64, withCount bool) []byte {
	if !withCount {
		return []byte(tag)
	}
	if tag == "INSERT" {
		tag = "INSERT 0"
	}
	return strconv.AppendInt(append([]byte(tag), ' '), n, 10)
}

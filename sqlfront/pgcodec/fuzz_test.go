package pgcodec_test

import (
	"testing"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
)

// fuzzOIDs are the parameter types FuzzDecodeParam draws from: every type
// DecodeParam knows and one it does not.
var fuzzOIDs = []uint32{
	0, 16, 17, 19, 20, 21, 23, 25, 26, 114, 199, 600, 700, 701, 705, 1000, 1001, 1005, 1007,
	1009, 1014, 1015, 1016, 1021, 1022, 1042, 1043, 1082, 1083, 1114, 1115, 1182, 1183,
	1184, 1185, 1186, 1187, 1231, 1266, 1270, 1560, 1561, 1562, 1563, 1700, 2950, 2951,
	3802, 3807,
}

// FuzzDecodeParam checks that no input makes DecodeParam panic, and that
// every failure carries a SQLSTATE.
func FuzzDecodeParam(f *testing.F) {
	f.Add(oidIndex(1007), int16(1), mustHex("00000001000000000000001700000002000000010000000400000001ffffffff"))
	f.Add(oidIndex(1700), int16(1), mustHex("000200000000000200011388"))
	f.Add(oidIndex(1009), int16(0), []byte(`{"a b",NULL,{1,2}}`))
	f.Add(oidIndex(17), int16(0), []byte(`\x0102`))
	f.Add(oidIndex(1266), int16(1), mustHex("00000000dde878c0ffffb9b0"))
	f.Add(oidIndex(1114), int16(0), []byte("0044-03-15 12:00:00 BC"))
	f.Fuzz(func(t *testing.T, pick uint16, format int16, data []byte) {
		oid := fuzzOIDs[int(pick)%len(fuzzOIDs)]
		v, err := pgcodec.DecodeParam(oid, format%3, data)
		if err != nil && sqlstate.CodeOf(err) == "" {
			t.Fatalf("DecodeParam(%d, %d, %x): error without SQLSTATE: %v", oid, format%3, data, err)
		}
		if err != nil && v != nil {
			t.Fatalf("DecodeParam(%d, %d, %x) = %#v with error %v", oid, format%3, data, v, err)
		}
	})
}

// oidIndex returns the index of oid in fuzzOIDs, for seeds.
func oidIndex(oid uint32) uint16 {
	for k, o := range fuzzOIDs {
		if o == oid {
			return uint16(k)
		}
	}
	panic("no such fuzz OID")
}

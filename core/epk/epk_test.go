package epk

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// Sources of the vectors below (repository, path):
const (
	srcJSv1     = "Azure/azure-sdk-for-js sdk/cosmosdb/cosmos/test/internal/unit/hashing/v1.spec.ts"
	srcJSv2     = "Azure/azure-sdk-for-js sdk/cosmosdb/cosmos/test/internal/unit/hashing/v2.spec.ts"
	srcJava     = "Azure/azure-sdk-for-java sdk/cosmos/azure-cosmos/src/test/java/com/azure/cosmos/models/PartitionKeyHashingTests.java"
	srcNetPKI   = "Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/Routing/PartitionKeyInternalTest.cs"
	srcNetRoute = "Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/Routing/PartitionRoutingHelperTest.cs"
	srcRust     = "Azure/azure-sdk-for-rust sdk/cosmos/azure_data_cosmos_driver/src/models/effective_partition_key.rs"
	srcRustEmu  = "Azure/azure-sdk-for-rust sdk/cosmos/azure_data_cosmos_driver/src/in_memory_emulator/epk.rs"
)

// The two strings of PartitionKeyInternalTest.TestManagedNativeCompatibility,
// cut there with buffer[..length] (UTF-16 code units; all of these are BMP).
const (
	latin    = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
	nonLatin = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяабвгдеёжзийклмнопрстуфхцчшщъыьэюяабвгдеёжзийклмнопрстуфхцчшщъыьэюяабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
)

func prefix(s string, n int) string { return string([]rune(s)[:n]) }

// jsLong is the 'a' string of the JS v1/v2 specs. The V2 vector pins its
// length: only 110 of the lengths 100..200 reproduces it (see
// TestJSLongStringLength).
var jsLong = strings.Repeat("a", 110)

type vector struct {
	key  []Value
	want string
	src  string
}

func (v vector) String() string { return fmt.Sprintf("%v", v.key) }

func k(vs ...Value) []Value { return vs }

var v1Vectors = []vector{
	{k(Str("partitionKey")), "05C1E1B3D9CD2608716273756A756A706F4C667A00", srcJSv1},
	{k(Str("redmond")), "05C1EFE313830C087366656E706F6500", srcJSv1},
	{k(Str(jsLong)), "05C1EB5921F706086262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626200", srcJSv1},
	{k(Str("")), "05C1CF33970FF80800", srcJSv1},
	{k(Str("aa")), "05C1C7B7270FE008626200", srcJSv1},
	{k(NullValue), "05C1ED45D7475601", srcJSv1},
	{k(Bool(true)), "05C1D7C5A903D803", srcJSv1},
	{k(Bool(false)), "05C1DB857D857C02", srcJSv1},
	{k(UndefinedValue), "05C1D529E345DC00", srcJSv1}, // [{}]
	{k(Num(5)), "05C1D9C1C5517C05C014", srcJSv1},
	{k(Num(5.5)), "05C1D7A771716C05C016", srcJSv1},
	{k(Num(12313.1221)), "05C1ED154D592E05C0C90723F50FC925D8", srcJSv1},
	{k(Num(123456789)), "05C1D9E1A5311C05C19DB7CD8B40", srcJSv1},

	{k(Str(strings.Repeat("a", 1024))), "05C1EB5921F706086262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626200", srcJava},
	{k(Num(-128)), "05C1D73349F54C053FA0", srcJava},                                      // Byte.MIN_VALUE
	{k(Num(127)), "05C1DD539DDFCC05C05FE0", srcJava},                                     // Byte.MAX_VALUE
	{k(Num(math.MinInt64)), "05C1DB35F33D1C053C20", srcJava},                             // Long.MIN_VALUE
	{k(Num(math.MaxInt64)), "05C1B799AB2DD005C3E0", srcJava},                             // Long.MAX_VALUE, 2^63 as a double
	{k(Num(math.MinInt32)), "05C1DFBF252BCC053E20", srcJava},                             // Integer.MIN_VALUE
	{k(Num(math.MaxInt32)), "05C1E1F503DFB205C1DFFFFFFFFC", srcJava},                     // Integer.MAX_VALUE
	{k(Num(math.SmallestNonzeroFloat64)), "05C1E5C91F4D3005800101010101010102", srcJava}, // Double.MIN_VALUE
	{k(Num(math.MaxFloat64)), "05C1CBE367C53005FFEFFFFFFFFFFFFFFE", srcJava},             // Double.MAX_VALUE

	// TestHashEffectivePartitionKey: six components; 2 encodes with a
	// trailing 0x00 byte (05C000), which the JS SDK would drop.
	{k(Num(2), Bool(true), Bool(false), NullValue, UndefinedValue, Str("Привет!")), "05C1D19581B37C05C0000302010008D1A0D281D1B9D1B3D1B6D2832200", srcNetPKI},
	// TestManagedNativeCompatibility.
	{k(Str("по-русски"), NullValue, Bool(true), Bool(false), UndefinedValue, Num(5.5)), "05C1D39FA55F0408D1C0D1BF2ED281D284D282D282D1BBD1B9000103020005C016", srcNetPKI},
	{k(Str(prefix(latin, 99))), "05C19B2DC38FC00862636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F7071727374757600", srcNetPKI},
	{k(Str(prefix(latin, 100))), "05C1DD5D8149640862636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767700", srcNetPKI},
	// 101..116 characters all cut to the same 100.
	{k(Str(prefix(latin, 101))), "05C1DD5D8149640862636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767700", srcNetPKI},
	{k(Str(prefix(latin, 116))), "05C1DD5D8149640862636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767778797A7B62636465666768696A6B6C6D6E6F707172737475767700", srcNetPKI},
	// Cyrillic: 2 UTF-8 bytes per character. 49 and 50 characters are at most
	// 100 bytes and end with the 0x00 terminator; from 51 characters on, the
	// encoding stops after 101 bytes with no terminator, while the hash still
	// covers the whole (up to 100 characters) string.
	{k(Str(prefix(nonLatin, 49))), "05C1C1BD37FE08D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BF00", srcNetPKI},
	{k(Str(prefix(nonLatin, 50))), "05C1B339EF472008D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C000", srcNetPKI},
	{k(Str(prefix(nonLatin, 51))), "05C1EB1F29DBFA08D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D2", srcNetPKI},
	{k(Str(prefix(nonLatin, 99))), "05C1E72F79C71608D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D2", srcNetPKI},
	{k(Str(prefix(nonLatin, 100))), "05C1E3653D9F3E08D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D2", srcNetPKI},
	{k(Str(prefix(nonLatin, 101))), "05C1E3653D9F3E08D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D281D282D283D284D285D286D287D288D289D28AD28BD28CD28DD28ED28FD290D1B1D1B2D1B3D1B4D1B5D1B6D292D1B7D1B8D1B9D1BAD1BBD1BCD1BDD1BED1BFD1C0D2", srcNetPKI},

	// The same values again, as the Rust SDK's tests list them.
	{k(Str("")), "05C1CF33970FF80800", srcRust},
	{k(Num(math.SmallestNonzeroFloat64)), "05C1E5C91F4D3005800101010101010102", srcRust},
}

func TestHashV1(t *testing.T) {
	for _, v := range v1Vectors {
		if got := HashV1(v.key...); got != v.want {
			t.Errorf("HashV1(%v) = %s\nwant %s (%s)", v, got, v.want, v.src)
		}
	}
}

var v2Vectors = []vector{
	{k(Str("redmond")), "22E342F38A486A088463DFF7838A5963", srcJSv2},
	{k(Str(jsLong)), "0BA3E9CA8EE4C14538828D1612A4B652", srcJSv2},
	{k(Str("")), "32E9366E637A71B4E710384B2F4970A0", srcJSv2},
	{k(Str("aa")), "05033626483AE80D00E44FBD35362B19", srcJSv2},
	{k(NullValue), "378867E4430E67857ACE5C908374FE16", srcJSv2},
	{k(Bool(true)), "0E711127C5B5A8E4726AC6DD306A3E59", srcJSv2},
	{k(Bool(false)), "2FE1BE91E90A3439635E0E9E37361EF2", srcJSv2},
	{k(UndefinedValue), "11622DAA78F835834610ABE56EFF5CB5", srcJSv2}, // [{}]
	{k(Num(5)), "19C08621B135968252FB34B4CF66F811", srcJSv2},
	{k(Num(5.5)), "0E2EE47829D1AF775EEFB6540FD1D0ED", srcJSv2},
	{k(Num(12313.1221)), "27E7ECA8F2EE3E53424DE8D5220631C6", srcJSv2},
	{k(Num(123456789)), "1F56D2538088EBA82CCF988F36E16760", srcJSv2},
	{k(Str("redmond"), Num(50), Num(5.5), Bool(true), Bool(false), NullValue, Str(""), Num(12313.1221)), "1A5E512F591E980E07A6D8AD5BD5AB2F", srcJSv2},

	{k(Str("partitionKey")), "013AEFCF77FA271571CF665A58C933F1", srcJava},
	{k(Str(strings.Repeat("a", 1024))), "332BDF5512AE49615F32C7D98C2DB86C", srcJava},
	{k(Num(-128)), "01DAEDABF913540367FE219B2AD06148", srcJava},
	{k(Num(127)), "0C507ACAC853ECA7977BF4CEFB562A25", srcJava},
	{k(Num(math.MinInt64)), "23D5C6395512BDFEAFADAD15328AD2BB", srcJava},
	{k(Num(math.MaxInt64)), "2EDB959178DFCCA18983F89384D1629B", srcJava},
	{k(Num(math.MinInt32)), "0B1660D5233C3171725B30D4A5F4CC1F", srcJava},
	{k(Num(math.MaxInt32)), "2D9349D64712AEB5EB1406E2F0BE2725", srcJava},
	{k(Num(math.SmallestNonzeroFloat64)), "0E6CBA63A280927DE485DEF865800139", srcJava},
	{k(Num(math.MaxFloat64)), "31424D996457102634591FF245DBCC4D", srcJava},

	// TestPartitionKeyBinaryEncodingV2.
	{k(Num(5.12312419050912359123)), "0EF2E2D82460884AF0F6440BE4F726A8", srcNetPKI},
	{k(Num(5), Str("redmond"), Bool(true), NullValue), "3032DECBE2AB1768D8E0AEDEA35881DF", srcNetPKI},
	{k(Str(strings.Repeat("a", 145))), "36375D21568760E891C9CB7002D5E059", srcNetPKI},
	// TestManagedNativeCompatibility: V2 does not truncate, so every length differs.
	{k(Str(prefix(latin, 99))), "072D8FA3228DD2A6C0A7129C845700E6", srcNetPKI},
	{k(Str(prefix(latin, 100))), "023D5F0B62EBEF22A43564F267193B4D", srcNetPKI},
	{k(Str(prefix(latin, 101))), "357D83181DB32D35F58CDA3C9F2E0742", srcNetPKI},
	{k(Str(prefix(latin, 102))), "12B320F72959AB449FD8E090C6B23B88", srcNetPKI},
	{k(Str(prefix(latin, 103))), "25FD21A31C69A8C8AD994F7FAC2B2B9F", srcNetPKI},
	{k(Str(prefix(latin, 104))), "1DC6FB1CF6E1228C506AA6C8735023C4", srcNetPKI},
	{k(Str(prefix(latin, 105))), "308E1E7870956CE5D9BDAD01200E09BD", srcNetPKI},
	{k(Str(prefix(latin, 106))), "362E21ABDEA7179DBDF7BF549DD8303B", srcNetPKI},
	{k(Str(prefix(latin, 107))), "1EBE932ECEFA4F53CE339D31B6BF53FD", srcNetPKI},
	{k(Str(prefix(latin, 108))), "3BFA3A6E9CBABA0EF756AEDEC66B1B3C", srcNetPKI},
	{k(Str(prefix(latin, 109))), "2880BF78DE0CE2CD1B0120EDA22601C4", srcNetPKI},
	{k(Str(prefix(latin, 110))), "1F3577D1D9CA7FC56100AED11F4DC646", srcNetPKI},
	{k(Str(prefix(latin, 111))), "205A9EB61F3B063E61C6ED655C9220E6", srcNetPKI},
	{k(Str(prefix(latin, 112))), "1152A43F1A852AFDDD4518C9CDD48616", srcNetPKI},
	{k(Str(prefix(latin, 113))), "38E2EB2EF54012B5CA40CDA34F1C7736", srcNetPKI},
	{k(Str(prefix(latin, 114))), "19BCC416843B9085DBBC18E8C7C80D72", srcNetPKI},
	{k(Str(prefix(latin, 115))), "03F1BB89FD8E9747B047281E80FA2E84", srcNetPKI},
	{k(Str(prefix(latin, 116))), "2BA0757B833F3922A3CBBB6DDA3803B4", srcNetPKI},
	{k(Str(prefix(nonLatin, 49))), "3742C1AF65AFA809282539F4BCDF2F6F", srcNetPKI},
	{k(Str(prefix(nonLatin, 50))), "399CF1F141E066E09CC7557EA7F0977A", srcNetPKI},
	{k(Str(prefix(nonLatin, 51))), "2D63C2F5FDAC6EFE5660CD509A723A90", srcNetPKI},
	{k(Str(prefix(nonLatin, 99))), "1E9836D9BCB67FDB2B5C984BD40AFAF9", srcNetPKI},
	{k(Str(prefix(nonLatin, 100))), "16102F19448867537E51BB4377962AF9", srcNetPKI},
	{k(Str(prefix(nonLatin, 101))), "0B6D25D07748AB9CA0F523D4BAD146C8", srcNetPKI},

	{k(Str("customer42")), "19819C94CE42A1654CCC8110539D9589", srcRustEmu},
	{k(Num(5.123_124_190_509_124)), "0EF2E2D82460884AF0F6440BE4F726A8", srcRust},
}

func TestHashV2(t *testing.T) {
	for _, v := range v2Vectors {
		if got := HashV2(v.key...); got != v.want {
			t.Errorf("HashV2(%v) = %s\nwant %s (%s)", v, got, v.want, v.src)
		}
	}
}

// TestJSLongStringLength pins the length of the JS specs' 'a' string, which is
// easier to miscount than to search for.
func TestJSLongStringLength(t *testing.T) {
	var found []int
	for n := 100; n <= 200; n++ {
		if HashV2(Str(strings.Repeat("a", n))) == "0BA3E9CA8EE4C14538828D1612A4B652" {
			found = append(found, n)
		}
	}
	if len(found) != 1 || found[0] != len(jsLong) {
		t.Errorf("lengths reproducing the JS vector: %v, want [%d]", found, len(jsLong))
	}
}

var multiHashVectors = []vector{
	{k(Str("redmond"), Num(5)), "22E342F38A486A088463DFF7838A5963" + "19C08621B135968252FB34B4CF66F811", srcRust},
	{k(Str("redmond"), Bool(true), NullValue), "22E342F38A486A088463DFF7838A5963" + "0E711127C5B5A8E4726AC6DD306A3E59" + "378867E4430E67857ACE5C908374FE16", srcRust},
	// TestRoutingForPrefixedPartitionKeyQueriesAsync: partition key range
	// boundaries placed at the EPKs of ["seattle"], ["seattle", "redmond"]
	// and ["seattle", "redmond", 5.12312419050912359123] on a three-level
	// MultiHash container.
	{k(Str("seattle")), "07E4D14180A45153F00B44907886F856", srcNetRoute},
	{k(Str("seattle"), Str("redmond")), "07E4D14180A45153F00B44907886F85622E342F38A486A088463DFF7838A5963", srcNetRoute},
	{k(Str("seattle"), Str("redmond"), Num(5.12312419050912359123)), "07E4D14180A45153F00B44907886F85622E342F38A486A088463DFF7838A59630EF2E2D82460884AF0F6440BE4F726A8", srcNetRoute},
}

func TestMultiHash(t *testing.T) {
	for _, v := range multiHashVectors {
		if got := MultiHash(v.key...); got != v.want {
			t.Errorf("MultiHash(%v) = %s\nwant %s (%s)", v, got, v.want, v.src)
		}
	}
	// One component: MultiHash and HashV2 agree.
	for _, v := range v2Vectors {
		if len(v.key) == 1 && MultiHash(v.key...) != v.want {
			t.Errorf("MultiHash(%v) != HashV2", v)
		}
	}
	// Rust's multi_hash_with_undefined: each level hashed alone.
	if got, want := MultiHash(Str("tenant1"), UndefinedValue), HashV2(Str("tenant1"))+HashV2(UndefinedValue); got != want {
		t.Errorf("MultiHash(tenant1, undefined) = %s, want %s", got, want)
	}
}

func TestEmptyKey(t *testing.T) {
	// The minimum EPK, as PartitionKeyInternal.Empty gives in every SDK.
	if HashV1() != "" || HashV2() != "" || MultiHash() != "" {
		t.Error("empty key must hash to the minimum EPK \"\"")
	}
}

// baselineNonStrings are the non-string cases of Azure/azure-cosmos-dotnet-v3
// Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/BaselineTest/TestBaseline/
// PartitionKeyHashBaselineTest.Singletons.xml and .Numbers.xml. Their hashing
// bytes are the same as an EPK's (only strings differ, see murmur3_test.go),
// so V1 is the MurmurHash3 x86 32-bit hash behind HashV1 and V2, with the
// first byte masked with 0x3F, is HashV2.
var baselineNonStrings = []struct {
	name string
	v    Value
	v1   uint32
	v2   string // unmasked, as in the file
}{
	{"Undefined", UndefinedValue, 0x514E28B7, "51622DAA78F835834610ABE56EFF5CB5"},
	{"null", NullValue, 0xE45AD1AB, "778867E4430E67857ACE5C908374FE16"},
	{"true", Bool(true), 0x5E2A8076, "4E711127C5B5A8E4726AC6DD306A3E59"},
	{"false", Bool(false), 0x6C27D09F, "EFE1BE91E90A3439635E0E9E37361EF2"},
	{"positive zero", Num(0), 0x1EDA80A6, "555B95BEDAC4B1E9EC1CDC9BB0DDDE58"},
	{"negative zero", Num(math.Copysign(0, -1)), 0xB03DA650, "3D018BB1DF3DB27235766E81FD10406E"},
	{"positive number", Num(1), 0xE1655A93, "A0CD98B339BA78A5D0CF6953B87070B0"},
	{"negative number", Num(-1), 0x452BDBE7, "59938E7A936C1C5B9E3AE842BBC16839"},
	{"Epsilon", Num(math.SmallestNonzeroFloat64), 0xAC83D318, "0E6CBA63A280927DE485DEF865800139"},
	{"MaxValue", Num(math.MaxFloat64), 0x378B3C46, "71424D996457102634591FF245DBCC4D"},
	{"MinValue", Num(-math.MaxFloat64), 0xE38DD8A1, "27050CC4910CFD9DACE1283D3801DF25"},
	// .NET's double.NaN has the bits 0xFFF8000000000000 (Go's math.NaN differs).
	{"NaN", Num(math.Float64frombits(0xFFF8000000000000)), 0xAF04DA37, "5AA4222583D70ECAA0922D8CA8EDFCB1"},
	{"NegativeInfinity", Num(math.Inf(-1)), 0x0F5A6CC5, "5B63B3FB266DB3B6CD3BC79FE893CDE8"},
	{"PositiveInfinity", Num(math.Inf(1)), 0xD2F84F93, "3889F7F08A8CE2A5C9829BBB1944B4FF"},
	{"long MaxValue", Num(math.MaxInt64), 0x1732A96D, "6EDB959178DFCCA18983F89384D1629B"},
	{"long MaxValue minus 1", Num(math.MaxInt64 - 1), 0x1732A96D, "6EDB959178DFCCA18983F89384D1629B"}, // same double
	{"long MinValue", Num(math.MinInt64), 0x69AF2787, "63D5C6395512BDFEAFADAD15328AD2BB"},
	{"MaxSafeInteger", Num(1<<53 - 1), 0x13F69B8A, "12C221C7032CED1F9E6693CE1428E6CF"},
	{"MaxSafeInteger Minus 1", Num(1<<53 - 2), 0xE5744366, "8FEA3467D94AA6E4628EF0B248C1FD9B"},
	{"MaxSafeInteger Plus 1", Num(1 << 53), 0xA30CCE12, "55335910D01122E3D99DA5DE569B065D"},
}

func TestDotnetBaseline(t *testing.T) {
	for _, tt := range baselineNonStrings {
		if got := sumV1([]Value{tt.v}); got != tt.v1 {
			t.Errorf("%s: V1 hash = %#08x, want %#08x", tt.name, got, tt.v1)
		}
		want := fmt.Sprintf("%02X", hexByte(tt.v2[:2])&0x3F) + tt.v2[2:]
		if got := HashV2(tt.v); got != want {
			t.Errorf("%s: HashV2 = %s, want %s", tt.name, got, want)
		}
	}
}

func hexByte(s string) byte {
	var b byte
	fmt.Sscanf(s, "%02X", &b)
	return b
}

// TestBinaryEncoding checks the V1 binary encoding on its own, with
// Azure/azure-cosmos-dotnet-v3 PartitionKeyInternalTest.TestPartitionKeyBinaryEncoding
// and TestMidPoint (the middle of range 24 of 25, 4209067939).
func TestBinaryEncoding(t *testing.T) {
	enc := func(key ...Value) string {
		var b []byte
		for _, v := range key {
			b = appendComponentV1(b, v)
		}
		return hexString(b)
	}
	tests := []struct {
		key  []Value
		want string
	}{
		{k(Num(5)), "05C014"},
		{k(Num(5.12312419050912359123)), "05C0153F858949735550"},
		{k(Str("redmond")), "087366656E706F6500"},
		{k(Bool(true)), "03"},
		{k(Bool(false)), "02"},
		{k(), ""},
		{k(NullValue), "01"},
		{k(Num(5), Str("redmond"), Bool(true), NullValue), "05C014087366656E706F65000301"},
		{k(Num(4209067939)), "05C1EFAF0B1F46"},
	}
	for _, tt := range tests {
		if got := enc(tt.key...); got != tt.want {
			t.Errorf("encoding of %v = %s, want %s", tt.key, got, tt.want)
		}
	}
}

func TestTruncateV1(t *testing.T) {
	emoji := "😀" // U+1F600: two UTF-16 code units, four UTF-8 bytes
	tests := []struct {
		name  string
		in    string
		head  string
		split bool
	}{
		{"short", "abc", "abc", false},
		{"100 ascii", strings.Repeat("a", 100), strings.Repeat("a", 100), false},
		{"101 ascii", strings.Repeat("a", 101), strings.Repeat("a", 100), false},
		{"100 cyrillic", strings.Repeat("я", 100), strings.Repeat("я", 100), false},
		{"101 cyrillic", strings.Repeat("я", 101), strings.Repeat("я", 100), false},
		{"50 emoji", strings.Repeat(emoji, 50), strings.Repeat(emoji, 50), false},
		{"51 emoji", strings.Repeat(emoji, 51), strings.Repeat(emoji, 50), false},
		// 99 units then a pair: .NET's Substring(0, 100) keeps the high surrogate.
		{"pair at the cut", strings.Repeat("a", 99) + emoji, strings.Repeat("a", 99), true},
		{"pair after the cut", strings.Repeat("a", 100) + emoji, strings.Repeat("a", 100), false},
	}
	for _, tt := range tests {
		head, split := truncateV1(tt.in)
		if head != tt.head || split != tt.split {
			t.Errorf("%s: truncateV1 = (%d bytes, %v), want (%d bytes, %v)", tt.name, len(head), split, len(tt.head), tt.split)
		}
	}
	// A split pair hashes as the 99 characters plus U+FFFD, which is what
	// .NET's and Node's UTF-8 encoders make of the lone high surrogate.
	cut := strings.Repeat("a", 99) + "\uFFFD"
	if HashV1(Str(strings.Repeat("a", 99)+"😀")) != HashV1(Str(cut)) {
		t.Error("a surrogate pair split by the cut must hash as U+FFFD")
	}
}

// TestAllocs checks the hot path: one allocation, the result.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	key := []Value{Str("customer-000042")}
	hkey := []Value{Str("tenant-7"), Str("user-0042"), Num(3)}
	for name, f := range map[string]func(){
		"HashV1":    func() { _ = HashV1(key...) },
		"HashV2":    func() { _ = HashV2(key...) },
		"MultiHash": func() { _ = MultiHash(hkey...) },
	} {
		if n := testing.AllocsPerRun(100, f); n > 1 {
			t.Errorf("%s: %v allocations per call, want 1", name, n)
		}
	}
}

func FuzzHash(f *testing.F) {
	f.Add("redmond", 5.5, uint8(String), uint8(Number), true)
	f.Add("", 0.0, uint8(Undefined), uint8(Null), false)
	f.Add(strings.Repeat("a", 99)+"😀", -0.0, uint8(String), uint8(200), true)
	f.Add("\xff\xfe", math.Inf(1), uint8(True), uint8(False), false)
	f.Fuzz(func(t *testing.T, s string, num float64, k1, k2 uint8, three bool) {
		mk := func(kind uint8) Value { return Value{Kind: Kind(kind), Num: num, Str: s} }
		key := []Value{mk(k1), mk(k2)}
		if three {
			key = append(key, Str(s))
		}
		v1 := HashV1(key...)
		if len(v1) == 0 || len(v1)%2 != 0 || v1[:2] != "05" {
			t.Errorf("HashV1 = %q: want a number-first hex encoding", v1)
		}
		for _, c := range v1 {
			if !strings.ContainsRune(hexDigits, c) {
				t.Fatalf("HashV1 = %q: not upper-case hex", v1)
			}
		}
		v2 := HashV2(key...)
		checkV2(t, v2)
		mh := MultiHash(key...)
		if len(mh) != 32*len(key) {
			t.Fatalf("MultiHash length %d, want %d", len(mh), 32*len(key))
		}
		for i := range key {
			checkV2(t, mh[32*i:32*i+32])
		}
		if utf8.ValidString(s) && HashV2(Str(s)) != MultiHash(Str(s)) {
			t.Error("MultiHash of one component differs from HashV2")
		}
		checkPrefixes(t, key)
	})
}

// checkPrefixes checks PrefixV1 and PrefixV2 against the start of the EPKs
// they stand for.
func checkPrefixes(t *testing.T, key []Value) {
	t.Helper()
	if got, want := fmt.Sprintf("%04X", PrefixV2(key...)), HashV2(key...)[:4]; got != want {
		t.Errorf("PrefixV2(%v) = %s, want %s", key, got, want)
	}
	if got, want := fmt.Sprintf("%08X", PrefixV1(key...)), HashV1(key...)[:8]; got != want {
		t.Errorf("PrefixV1(%v) = %s, want %s", key, got, want)
	}
	if got, want := fmt.Sprintf("%016X", HeadV2(key...)), HashV2(key...)[:16]; got != want {
		t.Errorf("HeadV2(%v) = %s, want %s", key, got, want)
	}
}

func TestPrefix(t *testing.T) {
	for _, key := range [][]Value{
		{Str("customer-000042")}, {Str("")}, {Str(latin)}, {Str(nonLatin)},
		{Num(0)}, {Num(-1.5)}, {Num(2)}, {Num(math.MaxFloat64)}, {Num(-math.MaxFloat64)},
		{NullValue}, {UndefinedValue}, {Bool(true)}, {Bool(false)},
		{Str("tenant-7"), Str("user-0042"), Num(3)}, {NullValue, Num(1)},
	} {
		checkPrefixes(t, key)
	}
	for i := range 5000 {
		checkPrefixes(t, []Value{Num(float64(i) * 1.37)})
		checkPrefixes(t, []Value{Str(fmt.Sprint("v", i))})
	}
	if PrefixV1() != 0 || PrefixV2() != 0 || HeadV2() != 0 {
		t.Error("the empty key's prefix is not 0")
	}
}

func checkV2(t *testing.T, h string) {
	t.Helper()
	if len(h) != 32 || h[0] > '3' {
		t.Fatalf("V2 EPK %q: want 32 hex digits, the first <= 3", h)
	}
	for _, c := range h {
		if !strings.ContainsRune(hexDigits, c) {
			t.Fatalf("V2 EPK %q: not upper-case hex", h)
		}
	}
}

var sink string

func BenchmarkHashV1(b *testing.B) {
	key := []Value{Str("customer-000042")}
	b.ReportAllocs()
	for b.Loop() {
		sink = HashV1(key...)
	}
}

func BenchmarkHashV2(b *testing.B) {
	key := []Value{Str("customer-000042")}
	b.ReportAllocs()
	for b.Loop() {
		sink = HashV2(key...)
	}
}

func BenchmarkMultiHash(b *testing.B) {
	key := []Value{Str("tenant-7"), Str("user-0042"), Num(3)}
	b.ReportAllocs()
	for b.Loop() {
		sink = MultiHash(key...)
	}
}

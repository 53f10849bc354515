package telemetry

import (
	"strings"
)

// field is a column of the logs pkcalc reads, under any of its names.
type field uint8

const (
	fNone field = iota
	fTime
	fDatabase
	fCollection
	fRegion
	fKey
	fRange
	fOperation     // OperationName
	fOperationType // AzureDiagnostics' operationType_s, the operation of a PartitionKeyRUConsumption row
	fCharge
	fSize
	fCategory
	fType
	nFields
)

// fieldNames are the names of each field's columns, in lower case, as
// the resource-specific tables (CDBPartitionKeyRUConsumption,
// CDBPartitionKeyStatistics: TimeGenerated, DatabaseName, ...) and the
// diagnostic log's own records (time, category, properties) name them.
// AzureDiagnostics names a column of a category's property by the
// property and its type: partitionKey_s, sizeKb_d, requestCharge_s
// (columnName below).
var fieldNames = map[string]field{
	"timegenerated":       fTime,
	"time":                fTime,
	"databasename":        fDatabase,
	"collectionname":      fCollection,
	"regionname":          fRegion,
	"region":              fRegion,
	"partitionkey":        fKey,
	"partitionkeyrangeid": fRange,
	"operationname":       fOperation,
	"operationtype":       fOperationType,
	"requestcharge":       fCharge,
	"sizekb":              fSize,
	"category":            fCategory,
	"type":                fType,
}

// display is how messages name each field: by the resource-specific
// table's column.
var display = [nFields]string{
	fTime: "TimeGenerated", fDatabase: "DatabaseName", fCollection: "CollectionName", fRegion: "RegionName",
	fKey: "PartitionKey", fRange: "PartitionKeyRangeId", fOperation: "OperationName", fOperationType: "operationType_s",
	fCharge: "RequestCharge", fSize: "SizeKb", fCategory: "Category", fType: "Type",
}

// columnName reads a column's name: the field it holds, and the time
// zone its header names when the Log Analytics portal wrote it into a
// CSV export ("TimeGenerated [UTC]"; "" if none). Names match in any
// case; an AzureDiagnostics name's type suffix (_s string, _d double, _l
// long, _b bool, _t datetime, _g guid) is dropped.
func columnName(name string) (f field, zone string) {
	t := strings.TrimSpace(name)
	if i := strings.LastIndexByte(t, '['); i > 0 && strings.HasSuffix(t, "]") {
		zone = strings.TrimSpace(t[i+1 : len(t)-1])
		t = strings.TrimSpace(t[:i])
	}
	n := strings.ToLower(t)
	if f, ok := fieldNames[n]; ok {
		return f, zone
	}
	if len(n) > 2 && n[len(n)-2] == '_' && strings.IndexByte("sdlbtg", n[len(n)-1]) >= 0 {
		if f, ok := fieldNames[n[:len(n)-2]]; ok {
			return f, zone
		}
	}
	return fNone, zone
}

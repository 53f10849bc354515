module github.com/pkcalc/pkcalc

go 1.26

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/syumai/workers v0.32.0
	github.com/vugu/vjson v0.0.0-20200505061711-f9cbed27d3d9
	github.com/vugu/vugu v0.4.0
	honnef.co/go/js/dom/v2 v2.0.0-20250304181735-b5e52f05e89d
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
)

tool (
	github.com/syumai/workers/cmd/workers-assets-gen
	github.com/vugu/vugu/cmd/vugugen
)

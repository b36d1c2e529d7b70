# Entry points of the Sluice workspace.
.PHONY: setup build lint test test-unit test-e2e demo bench docs clean

setup:
	@bash scripts/setup.sh

build: setup
	@npx tsc -b
	@node scripts/copy-assets.mjs

lint: build
	@npx eslint .

proto: ; @node libs/proto/scripts/generate-types.mjs
docs: build
	@node libs/config/dist/docs/write-docs.js

# The whole suite: unit tests beside the code, then e2e/ with real processes.
test: build lint
	@node scripts/run-tests.mjs all

test-unit: build
	@node scripts/run-tests.mjs unit

test-e2e: build
	@node scripts/run-tests.mjs e2e

demo: build
	@node deploy/local/demo.mjs

bench:
	@SLUICE_SETUP_BENCH=1 bash scripts/setup.sh
	@npx tsc -b
	@node scripts/copy-assets.mjs
	@node scripts/run-bench.mjs

clean:
	@npx tsc -b --clean

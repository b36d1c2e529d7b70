# Entry points of the Sluice workspace.
.PHONY: setup build lint test test-unit test-e2e demo bench docs proto clean kube-api images

setup:
	@bash scripts/setup.sh

build: setup
	@npx tsc -b

lint: build
	@npx eslint .

# The whole suite: unit tests beside the code, then e2e/ with real processes.
test: build lint
	@node scripts/run-tests.mjs all

test-unit: build
	@node scripts/run-tests.mjs unit

test-e2e: build
	@node scripts/run-tests.mjs e2e

demo: build
	@node deploy/local/demo.mjs

# Not part of CI: installs nginx and wrk when missing, then runs bench/.
bench:
	@SLUICE_SETUP_BENCH=1 bash scripts/setup.sh
	@npx tsc -b
	@node scripts/run-bench.mjs

# docs/configuration.md from the configuration schema, crds/ and docs/policies.md from the policy
# schema (a test fails when any of them is stale).
docs: build
	@node libs/config/dist/docs/write-docs.js
	@node libs/policies/dist/generate/write-generated.js
	@node libs/errors/dist/docs/write-docs.js

# libs/proto/src/generated from the .proto files (a test fails when they are stale).
proto: setup
	@node libs/proto/scripts/generate-types.mjs

# The test Kubernetes API server in the foreground (SLUICE_KUBE_API_PORT, default 6443; kubeconfig at
# SLUICE_KUBE_API_KUBECONFIG, default .kube-api/kubeconfig). See docs/guides/kubernetes-testing.md.
kube-api: build
	@node scripts/kube-api.mjs

# The agent, controller and tap images (Containerfile) with buildah, podman or docker, tagged with the
# package version; IMAGE_REGISTRY, IMAGE_TAG, BASE_IMAGE, CONTAINER_TOOL: docs/guides/images.md.
images:
	@bash scripts/images.sh

clean:
	@npx tsc -b --clean

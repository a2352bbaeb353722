# plots/: make plots CAMPAIGN="name [name ...]" [FORMAT=png|svg|pdf] (several
# campaigns: on the same axes, in results/overlay-A-B), make plots FILE=out.txt,
# make compare BASE=name NEW=name [TOL=5%], make report CAMPAIGN=name [BASE=name],
# make export CAMPAIGN=name TEXTFILE_DIR=dir (Prometheus' text format),
# make trend CAMPAIGNS="a b ..."|'prefix-*' [NAME=name] (their history).
# Never installs anything; the values reach the scripts byte for byte
# (as CAMPAIGN_ARG_VAR, campaigns/build.mk: every variable is a row of
# campaigns/vars).
plots: make-vars all
	@if [ -n "$${CAMPAIGN_ARG_FILE:-}" ]; then \
		bash plots/plot.sh --file "$$CAMPAIGN_ARG_FILE" --format "$${CAMPAIGN_ARG_FORMAT:-png}"; \
	elif [ -n "$${CAMPAIGN_ARG_CAMPAIGN:-}" ]; then \
		set --; for c in $$CAMPAIGN_ARG_CAMPAIGN; do set -- "$$@" --campaign-dir "$${CAMPAIGN_ARG_RESULTS:-results}/$$c"; done; \
		bash plots/plot.sh "$$@" --format "$${CAMPAIGN_ARG_FORMAT:-png}"; \
	else \
		echo "plots: error: give CAMPAIGN=name or FILE=aller-output" >&2; exit 2; \
	fi

compare: make-vars all
	@bash plots/compare.sh

report: make-vars all
	@$(slurm_env) bash plots/report.sh

trend: make-vars all
	@bash plots/trend.sh

export: make-vars all
	@bash plots/export.sh

# make docs-images: the figures of README.md and docs/ (docs/img/*.png) drawn
# again from real campaigns on the local cluster (up, as make cluster-up
# brings it): make demo's smoke campaign on 4 nodes (the bandwidth plots)
# and docs/aller.md's links campaign on 4 nodes with the link n4 -> n1
# slowed (the node-pair matrix). docs/img/SOURCES records the gnuplot scripts
# they were drawn with (md5sum); tests/cli/docs-run.bats fails when one has
# changed since, so a change of style is followed by make docs-images.
DOCS_IMG := $(B)/docs-images
.PHONY: docs-images
docs-images: all cluster-up
	@rm -rf $(DOCS_IMG) && . $(B)/cluster/env.sh && set -e && \
	trap 'bash cluster/fabric.sh heal >/dev/null' EXIT && \
	wait_job() { echo "docs-images: waiting for job $$1 ..."; while [ -n "$$(squeue -h -j $$1 2>/dev/null)" ]; do sleep 2; done; } && \
	wait_job "$$(bash campaigns/submit.sh CONF=campaigns/smoke.conf CAMPAIGN=smoke RESULTS=$(DOCS_IMG) NODES=4)" && \
	bash cluster/fabric.sh slow-link n4 n1 20mbit && \
	wait_job "$$(bash campaigns/submit.sh CAMPAIGN=links RESULTS=$(DOCS_IMG) NODES=4 TASKS_PER_NODE=1 \
		MODES=contiguous LONGS=0 ALLER_ARGS=--pairs=1M)" && \
	cp $(DOCS_IMG)/smoke/plots/bandwidth-contiguous-n4.png $(DOCS_IMG)/smoke/plots/bandwidth-strided-n4.png docs/img/ && \
	cp $(DOCS_IMG)/links/plots/pairs-links-n4-*.png docs/img/pairs-local-cluster.png && \
	md5sum plots/*.gp >docs/img/SOURCES && \
	echo "docs-images: docs/img/: $$(cd docs/img && echo *.png)"

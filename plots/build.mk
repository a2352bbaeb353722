# plots/: make plots CAMPAIGN="name [name ...]" [FORMAT=png|svg|pdf] (several
# campaigns: on the same axes, in results/overlay-A-B), make plots FILE=out.txt,
# make compare BASE=name NEW=name [TOL=5%], make report CAMPAIGN=name [BASE=name],
# make export CAMPAIGN=name TEXTFILE_DIR=dir (Prometheus' text format),
# make trend CAMPAIGNS="a b ..."|'prefix-*' [NAME=name] (their history).
# Never installs anything; the values reach the scripts byte for byte
# (CAMPAIGN_ARG_CAMPAIGN and _RESULTS come from campaigns/build.mk).
FORMAT ?= png
plots compare report: export CAMPAIGN_ARG_FILE := $(value FILE)
plots compare report: export CAMPAIGN_ARG_FORMAT := $(value FORMAT)
compare report: export CAMPAIGN_ARG_BASE := $(value BASE)
compare report: export CAMPAIGN_ARG_NEW := $(value NEW)
compare report: export CAMPAIGN_ARG_TOL := $(value TOL)
plots: make-vars all
	@if [ -n "$$CAMPAIGN_ARG_FILE" ]; then \
		bash plots/plot.sh --file "$$CAMPAIGN_ARG_FILE" --format "$$CAMPAIGN_ARG_FORMAT"; \
	elif [ -n "$${CAMPAIGN_ARG_CAMPAIGN:-}" ]; then \
		set --; for c in $$CAMPAIGN_ARG_CAMPAIGN; do set -- "$$@" --campaign-dir "$${CAMPAIGN_ARG_RESULTS:-results}/$$c"; done; \
		bash plots/plot.sh "$$@" --format "$$CAMPAIGN_ARG_FORMAT"; \
	else \
		echo "plots: error: give CAMPAIGN=name or FILE=aller-output" >&2; exit 2; \
	fi

compare: make-vars all
	@bash plots/compare.sh

report: make-vars all
	@$(slurm_env) bash plots/report.sh

trend: export CAMPAIGN_ARG_CAMPAIGNS := $(value CAMPAIGNS)
trend: export CAMPAIGN_ARG_NAME := $(value NAME)
trend: make-vars all
	@bash plots/trend.sh

export: export CAMPAIGN_ARG_TEXTFILE_DIR := $(value TEXTFILE_DIR)
export: make-vars all
	@bash plots/export.sh

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

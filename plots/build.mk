# plots/: make plots CAMPAIGN=name [FORMAT=png|svg|pdf], or make plots FILE=out.txt.
# Never installs anything; CAMPAIGN and FILE reach plot.sh byte for byte
# (CAMPAIGN_ARG_CAMPAIGN comes from campaigns/build.mk).
FORMAT ?= png
plots: export CAMPAIGN_ARG_FILE := $(value FILE)
plots: export CAMPAIGN_ARG_FORMAT := $(value FORMAT)
plots: all
	@if [ -n "$$CAMPAIGN_ARG_FILE" ]; then \
		bash plots/plot.sh --file "$$CAMPAIGN_ARG_FILE" --format "$$CAMPAIGN_ARG_FORMAT"; \
	elif [ -n "$${CAMPAIGN_ARG_CAMPAIGN:-}" ]; then \
		bash plots/plot.sh --campaign-dir "results/$$CAMPAIGN_ARG_CAMPAIGN" --format "$$CAMPAIGN_ARG_FORMAT"; \
	else \
		echo "plots: error: give CAMPAIGN=name or FILE=aller-output" >&2; exit 2; \
	fi

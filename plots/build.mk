# plots/: make plots CAMPAIGN=name [FORMAT=png|svg|pdf], or make plots FILE=out.txt
FORMAT ?= png
plots: all
	@if [ -n "$(FILE)" ]; then \
		bash plots/plot.sh --file '$(FILE)' --format '$(FORMAT)'; \
	elif [ -n "$(CAMPAIGN)" ]; then \
		bash plots/plot.sh --campaign-dir 'results/$(CAMPAIGN)' --format '$(FORMAT)'; \
	else \
		echo "plots: error: give CAMPAIGN=name or FILE=aller-output" >&2; exit 2; \
	fi

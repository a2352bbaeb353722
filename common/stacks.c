/* stacks.c: the MPI stacks (see stacks.h). */
#include "stacks.h"

#include <stdio.h>
#include <string.h>

static const struct stack stacks[] = {
	{ "ob1-tcp", "openmpi", "Open MPI's ob1 PML over its TCP BTL (Debian's default)",
	  "OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self,vader" },
	{ "ucx", "openmpi", "Open MPI's UCX PML, as InfiniBand and RoCE sites run it; UCX over TCP here",
	  "OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any UCX_TLS=tcp,self,sm" },
	{ "ofi", "openmpi", "Open MPI's cm PML with the OFI MTL, as Slingshot and EFA sites run it; "
	  "libfabric's tcp;ofi_rxm here", "OMPI_MCA_pml=cm OMPI_MCA_mtl=ofi OMPI_MCA_mtl_ofi_provider_include=tcp;ofi_rxm" },
	{ "mpich-ucx", "mpich", "MPICH's ch4:ucx device (aller built with MPI=mpich); UCX over TCP here",
	  "UCX_TLS=tcp,self,sm" },
};
#define NSTACKS (sizeof(stacks) / sizeof(stacks[0]))

const struct stack *stack_named(const char *name)
{
	for (size_t i = 0; name && i < NSTACKS; i++)
		if (!strcmp(stacks[i].name, name))
			return &stacks[i];
	return NULL;
}

void stack_names(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < NSTACKS; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", stacks[i].name);
}

/* One assignment: set where unset, agreed where set alike; -1 with err where set otherwise. */
static int assign(const struct stack *s, const char *var, const char *value, const char *(*get)(const char *),
		  int (*set)(const char *, const char *), char *desc, size_t desclen, char *err, size_t errlen)
{
	const char *now = get(var);

	if (now && strcmp(now, value)) {
		snprintf(err, errlen, "stack '%s' sets %s=%s, but the environment has %s=%s: unset it, or run "
			 "without the stack", s->name, var, value, var, now);
		return -1;
	}
	if (!now && set && set(var, value) != 0) {
		snprintf(err, errlen, "stack '%s': cannot set %s", s->name, var);
		return -1;
	}
	snprintf(desc + strlen(desc), desclen - strlen(desc), "%s%s=%s", desc[0] ? " " : "", var, value);
	return 0;
}

/* Every assignment of the stack in turn (set NULL: each checked, none set). */
static int assign_all(const struct stack *s, int reveal, const char *(*get)(const char *),
		      int (*set)(const char *, const char *), char *desc, size_t desclen, char *err, size_t errlen)
{
	const char *nics = get("OMPI_MCA_btl_tcp_if_include");
	char word[256], value[256];

	desc[0] = '\0';
	for (const char *w = s->sets; *w; w += strspn(w, " ")) {
		size_t n = strcspn(w, " "), eq = strcspn(w, "=");
		snprintf(word, sizeof(word), "%.*s", (int)(eq < n ? eq : n), w);
		snprintf(value, sizeof(value), "%.*s%s", eq < n ? (int)(n - eq - 1) : 0, eq < n ? w + eq + 1 : "",
			 reveal && !strcmp(word, "OMPI_MCA_pml") ? ",monitoring" : "");
		if (assign(s, word, value, get, set, desc, desclen, err, errlen) != 0)
			return -1;
		w += n;
	}
	if (nics && *nics && strstr(s->sets, "UCX_TLS") &&
	    assign(s, "UCX_NET_DEVICES", nics, get, set, desc, desclen, err, errlen) != 0)
		return -1;
	if (nics && *nics && strstr(s->sets, "mtl=ofi")) {
		snprintf(value, sizeof(value), "%.*s", (int)strcspn(nics, ","), nics);   /* one interface */
		if (assign(s, "FI_TCP_IFACE", value, get, set, desc, desclen, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int stack_apply(const struct stack *s, int reveal, const char *(*get)(const char *),
		int (*set)(const char *, const char *), char *desc, size_t desclen, char *err, size_t errlen)
{
	/* all checked before the first is set: a stack the environment contradicts sets nothing */
	if (assign_all(s, reveal, get, NULL, desc, desclen, err, errlen) != 0)
		return -1;
	return set ? assign_all(s, reveal, get, set, desc, desclen, err, errlen) : 0;
}

const char *stack_nics(const char *(*get)(const char *), char *buf, size_t len)
{
	const char *pml = get("OMPI_MCA_pml"), *mtl = get("OMPI_MCA_mtl"), *var, *v;
	size_t at = 0;

	if (pml ? *pml != '^' && strstr(pml, "ucx") : get("UCX_TLS") != NULL)   /* "^ucx": all but it */
		var = "UCX_NET_DEVICES";
	else if (mtl && *mtl != '^' && strstr(mtl, "ofi") && !(pml && strstr(pml, "ob1")))
		var = "FI_TCP_IFACE";
	else
		var = "OMPI_MCA_btl_tcp_if_include";
	buf[0] = '\0';
	if (!(v = get(var)) || !*v)
		return NULL;
	for (const char *s = v; *s && len > 0; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
		int n = (int)strcspn(s, ",:");   /* UCX's DEVICE:PORT as its device */
		if (n > 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? "," : "", n, s);
	}
	return at > 0 && at < len ? var : NULL;
}

int stack_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = list; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ','))
		if (strcspn(s, ",") == n && !strncmp(s, name, n))
			return 1;
	return 0;
}

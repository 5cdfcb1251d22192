/* shapes of macro-heavy C (issue 13, session 9): each rule's case, then a definition and a
 * call after it that must keep their lines */
#define BITS (8 /* CHAR_BIT */ * sizeof(int) - 1)
#define LIMIT(x) ((x) + 4 /* slack */ + 1)

/* a label with no statement after it (bare_labels) */
int probe(int dev)
{
	int ret = start(dev);
	if (ret)
		goto out;
	ret = finish(dev);
out:
#ifdef CONFIG_TRACE
	trace(ret);
#endif
	return ret;
}

void unwind(int dev)
{
	if (dev)
		goto done;
	stop(dev);
done:
}

/* a conditional whose branches close and reopen a block (split_conditionals) */
int family(int f)
{
	if (f == 4) {
		return v4(f);
#ifdef CONFIG_IPV6
	} else if (f == 6) {
		return v6(f);
#endif
	}
	return 0;
}

int reader(int n)
{
	for (int i = 0; i < n; i++) {
		step(i);
#ifdef DEBUG
		log_step(i);
	}
	log_done(n);
#else
	}
#endif
	return n;
}

/* a conditional inside an array's size, a #define inside an initializer (inline_conditionals) */
struct hdr {
	int opt[(4 >> 2)
#ifdef CONFIG_MD5
		+ (16 >> 2)
#endif
		];
};

static const char flags_strings[][32] = {
#define FLAG_LEGACY	1
	"legacy",
#define FLAG_FAST	2
	"fast",
};

/* list macros in an initializer (list_macros) */
static const char *const names[] = {
	"free",
	ZONE_TEXTS("alloc")
	ZONE_TEXTS("skip")
	"last",
};

static struct bank banks[] = {
	BANK(0, 6, 0xF0, DRVNAME "-0"),
	BANK(10, 8, 0xE0, DRVNAME "-1"),
};

static struct ops *all_ops[] = {
	&plain_ops, &fast_ops, TRACE_OPS RUDE_OPS &last_ops,
};

/* preprocessing numbers only a macro can paste (pp_numbers) */
void modes(struct link *l)
{
	add_mode(l, 1000baseT_Full);
	add_mode(l, 10000baseKR_Full);
	table_entry(INTEL, 82801AA_3, 0x1fUL, 1.5e-3f);
}

/* an iterator macro after a directive line, and a call on a unary `&` (statement_macros,
 * tagged_type_arguments) */
int count(struct list *head)
{
	struct item *p;
	int n = 0;
#ifdef CONFIG_ITEMS
	n = 1;
#endif
	for_each_item(p, head)
		n += weight(p);
	return n + (&container_of(head, struct owner, list)->base != 0);
}

/* an attribute macro with arguments before or after `static`, a unit macro after a number
 * (macros) */
TARGET_ATTRIBUTE("bmi2") static size_t read_body(const void *src)
{
	return bound(src) <= 128 KB;
}
static DECLARE_BITMAP(seen, 64) __initdata;
static TARGET_ATTRIBUTE("bmi2") size_t
write_body(void *dst)
{
	return 3 + (size(dst) >= (1 KB - 4));
}

/* macro lines at the top level without `;` (declaration_macros) */
DECLARE_TEST(0)
DECLARE_TEST(1)
test_key(old_key, key_true)

static int __init start_module(void)
{
	return count(0);
}
module_init(start_module)
module_exit(stop_module)

int after_macros(void)
{
	return probe(1);
}

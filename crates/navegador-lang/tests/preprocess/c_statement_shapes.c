/* statement, string and attribute shapes of macro-heavy C (issue 13, session 11): each
 * rule's case, then a definition and a call after it that must keep their lines */
#define KB_ALIGN __aligned(8)

/* a conditional after a control statement's head, and one whose branch ends in one
 * (inline_conditionals, split_conditionals) */
int mode_of(unsigned long arg, int len)
{
	if (arg == TRACE_PC)
		return MODE_PC;
	else if (arg == TRACE_CMP)
#ifdef CONFIG_COMPARISONS
		return MODE_CMP;
#else
		return -ENOTSUPP;
#endif
	else
		return -EINVAL;
#ifdef CONFIG_SPARSE
	if (len & 1)
#endif
		fold(len);
	return finish(len);
}

/* directives inside an initializer (inline_conditionals) */
static struct pool pools[] = {
	POOL(8),
#if (CHUNK > 32)
	POOL(32),
#if (CHUNK > 256)
#error CHUNK is too large (256 MAX)
#endif
#endif
	POOL(CHUNK)
};

/* a macro that ends a `do` loop, one that closes a loop before the body's end, a loop
 * macro with a `for` head, a statement after an iterator macro on the next line
 * (statement_macros) */
void each_thread(struct task *p, struct task *t, int n)
{
	do {
		wake(t);
	} while_each_thread(p, t);
	for_each_hop(p) {
		drop(p);
	} endfor_each_hop(p)
	loop_unrolled_for(int i = 0; i < n; i++) {
		step(i);
	}
	list_for_each_entry(t, &p->children, sibling)
		(void) notify(t);
	hlist_for_each_entry(t, &p->hash, node)
		++n;
}

/* a call beside a string literal is one (string_macros) */
MODULE_PARM_DESC(uarts, "Maximum number of UARTs (1-" __stringify(NR_UARTS) ")");

int show(char *buf)
{
	return emit(buf, __stringify(COMPRESSION) "\n");
}

/* attributes: a type before `const`, after a qualifier, after a declarator on the next
 * line, after an array's declarator, in a cast, before a function pointer; `__attribute__`
 * with its arguments on the next line (reserved_attributes, macros, defined_attributes) */
static U32 const min_size = 1 << 4;
static __u16 const sizes[] = { 536, 1300 };
static u8 const __aligned(8) seed[] = { 1, 2 };
extern const unsigned long relative_base
__section(".rodata");
char LICENSE[] SEC("license") = "GPL";
struct page_data {
	unsigned char data[] KB_ALIGN;
};
void __weak (*power_off)(void);

static __always_inline __realloc_size(2) void *
grow(const void *p, size_t n)
{
	char buf[16 + PAD] __attribute__
		((aligned(16)));
	return resize((uintptr_t __force)p, (__force int)
		      n, buf);
}

/* a macro declaring a member with a type among its arguments, and one used as a type with
 * several (declaration_macros) */
struct events {
	DECLARE_KFIFO(fifo, struct event, 16);
	STRUCT_KFIFO(char, 64) chars;
	int count;
};

/* an operator passed to a macro (macros), a string literal going on across a conditional
 * and an `#undef` after an initializer's item (inline_conditionals), a member named like a
 * blanked word (blank), an empty member (`;;`), GNU's `__volatile__` (replace), macros side
 * by side as an argument (string_macros), an attribute in a tagged type argument
 * (tagged_type_arguments), a reserved name declared after a struct's body */
int order(struct map *m)
{
	int error = check_order(m, start, <, end);
	error |= check_order(m, brk, <=, end);
	printk(KERN_DEFAULT CUT_HERE);
	m->out = alloc_percpu_gfp(struct route __rcu *,
				  GFP_KERNEL);
	return error;
}

static const char readme[] =
	"tracing mini-HOWTO:\n"
#ifdef CONFIG_STACK
	"  stack\n"
#endif
	"end\n";

static const struct speed speeds[] = {
	{SPEED_10, {LBIT(10baseT)} },
	{SPEED_100, {LBIT(100baseT)} }
#undef LBIT
};

static const struct icmp frag = {
	.code = FRAG_NEEDED,
	.un.frag.__unused = 0,
};

struct ca {
	u8 cnt;		/* a count */;
	union regs {
		__volatile__ struct rd_regs r;
	} u;
};

void neon(int a)
{
	union {
		int val;
		int pair;
	} __a = { a };
	use(__a.val);
}

/* a macro whose every argument is statements reads as a block (argument_shapes), an
 * upper-case word after `= name` goes on the expression (macros) */
void lock_loop(struct lockref *ref, int timeout)
{
	CMPXCHG_LOOP(
		ref->count++;
	,
		return;
	);
	DEB2(printk(KERN_ERR "timeout\n");)
	timeout = timeout TIMEOUT_MULT;
	settle(ref, timeout);
}

int after_statements(void)
{
	return mode_of(0, 0) + show(0);
}

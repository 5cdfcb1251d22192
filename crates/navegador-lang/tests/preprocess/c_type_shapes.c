/* types where C has expressions and declarations passed to macros (issue 13, session 11):
 * each rule's case, then a definition and a call after it that must keep their lines */

/* `typeof(…)` of an expression in a type position (type_calls) */
struct item {
	struct list link;
	unsigned long flags;
	int weight;
};

int heaviest(struct item *it, struct list *head)
{
	typeof(it->flags) seen = read_flags(it);
	__typeof__(*it) copy;
	size_t at = offsetof(typeof(*it), weight);
	struct item *next = list_entry(head->next, typeof(*it), link);
	return pick(seen, at, next, (typeof(it->weight))copy.weight);
}

/* `__alignof__` of an expression, and one of a type beside a value (replace) */
size_t align_of(struct item *it)
{
	size_t a = max_t(size_t, 8, __alignof__(unsigned long));
	return round_up(a, __alignof__(*it)) + alloc_size(16, __alignof__(char));
}

/* a call after a number's `*` and after a comparison takes a tagged type
 * (tagged_type_arguments) */
void checks(void)
{
	BUILD_BUG_ON(BITS + FLAG_BITS > 8 *
			sizeof_field(struct item, flags));
	BUILD_BUG_ON(sizeof(struct item) >
		     sizeof_field(struct list, next));
	settle();
}

/* declarator macros: an array type, a name with bounds, one argument that is a whole
 * declaration (declaration_macros) */
DEFINE_PER_CPU(struct item[NR_ITEMS], item_cache);
static DEFINE_PER_CPU(struct item *[2], item_hits);
DEFINE_PER_CPU_SHARED_ALIGNED(struct item [NR_POOLS], item_pools);

struct table {
	DECLARE_BITMAP(slots[NR_TABLES], NR_SLOTS);
	int count;
};

INDIRECT_CALLABLE_DECLARE(int item_recv(struct item *, struct list *,
					 size_t len));
INDIRECT_CALLABLE_DECLARE(item_hash_t item_hash);
INDIRECT_CALLABLE_DECLARE(struct item *item_check(struct item *));

/* an attribute macro after the `,` of a declaration, and a lower-case `__x__` one
 * (reserved_attributes) */
int walk(struct item *first)
{
	struct item *it, __percpu *pit;
	struct list *l, __rcu **lp;
	u64 debt, __maybe_unused delay;
	return step(first, &it, &pit, &l, &lp, &debt);
}

static u32 __attribute_const__ multiply(u32 x, u32 y)
{
	return mul(x, y);
}

/* a macro's arguments that are parameter declarations, calls side by side and
 * statements: a tracepoint (argument_shapes) */
DECLARE_EVENT_CLASS(item_event,

	TP_PROTO(struct item *it, unsigned int n,
		 const void *data, u64 delta),

	TP_ARGS(it, n, data, delta),

	TP_STRUCT__entry(
		__string(	name,		item_name(it)	)
		__field(	unsigned int,	n		)
		__field(u64, delta)
	),

	TP_fast_assign(
		__assign_str(name, item_name(it));
		__entry->n = n;
		__entry->delta = delta;
	),

	TP_printk("%s n=%u", __get_str(name), __entry->n)
);

DEFINE_EVENT(item_event, item_add,
	TP_PROTO(struct item *it, unsigned int n, const void *data, u64 delta),
	TP_ARGS(it, n, data, delta)
);

int after_types(void)
{
	return heaviest(0, 0) + walk(0);
}

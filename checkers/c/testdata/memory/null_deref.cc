struct item {
	int value;
};

/* At a statement's top level && may declare an rvalue reference. */
int ref_then_test(item *it)
{
	auto &&v = it->value; // want "c.null.deref"
	if (!it)
		return -1;
	return v;
}

/* The metadata pattern's file-system model in the store (metadata.h): ids,
 * keys, inode records, and the namespace operations lookup, create, rename
 * and delete on the names and inodes tables. No allocation: every buffer
 * is the caller's or on the stack. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "metadata.h"

const char *const md_op_names[MD_NOPS] = {"mkdir", "getFileId", "rename", "delete"};
const char *const md_type_names[2] = {"dir", "file"};

bool md_node_dir(struct md_path *p, const struct rpb_metadata_opts *o)
{
	memset(p, 0, sizeof *p);
	int len = snprintf(p->text, sizeof p->text, "%s/%s", o->workspace, o->node);
	if (len < 0 || (size_t)len >= sizeof p->text || p->text[0] != '/')
		return false;
	memcpy(p->parts, p->text, (size_t)len + 1);
	for (char *s = p->parts + 1; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || n >= MD_NAME_MAX || p->n == MD_DEPTH_MAX)
			return false;
		p->comp[p->n] = s;
		p->len[p->n++] = n;
		s += n;
		if (*s)
			*s++ = '\0';
	}
	return p->n > 0;
}

size_t md_id(char *buf, const char *tag, const char *node, unsigned owner, uint64_t seq)
{
	int n = owner == MD_OWNER_SETUP
			? snprintf(buf, MD_ID_MAX, "%s:%s:s:%012" PRIu64, tag, node, seq)
			: snprintf(buf, MD_ID_MAX, "%s:%s:%04u:%012" PRIu64, tag, node, owner, seq);
	return n < 0 ? 0 : (size_t)n < MD_ID_MAX ? (size_t)n : MD_ID_MAX - 1;
}

size_t md_name_key(char *buf, const char *parent, size_t plen, const char *name, size_t nlen)
{
	/* Ids and names are bounded by MD_ID_MAX and MD_NAME_MAX: this fits. */
	memcpy(buf, parent, plen);
	buf[plen] = '/';
	memcpy(buf + plen + 1, name, nlen);
	buf[plen + 1 + nlen] = '\0';
	return plen + 1 + nlen;
}

size_t md_target_name(char *buf, unsigned thread, bool renamed)
{
	return (size_t)snprintf(buf, MD_NAME_MAX, "%u%s", thread, renamed ? "-" : "");
}

size_t md_preload_name(char *buf, unsigned thread, uint64_t k)
{
	return (size_t)snprintf(buf, MD_NAME_MAX, "%u.%" PRIu64, thread, k);
}

size_t md_inode_format(char *buf, enum md_type type, const char *parent, size_t plen,
		       const char *name, size_t nlen, uint64_t created_ms, uint64_t changed_ms)
{
	int n = snprintf(buf, MD_REC_MAX,
			 "type=%s\nparent=%.*s\nname=%.*s\ncreated=%" PRIu64 "\nchanged=%" PRIu64 "\n",
			 md_type_names[type], (int)plen, parent, (int)nlen, name, created_ms,
			 changed_ms);
	return n < 0 ? 0 : (size_t)n < MD_REC_MAX ? (size_t)n : MD_REC_MAX - 1;
}

bool md_inode_parse(const void *rec, size_t n, struct md_inode *out)
{
	static const char *const fields[] = {"type=", "parent=", "name=", "created=", "changed="};
	rpb_slice *slot[] = {&out->type, &out->parent, &out->name, &out->created, &out->changed};
	const char *p = rec, *end = p + n;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		size_t flen = strlen(fields[i]);
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || (size_t)(nl - p) < flen || memcmp(p, fields[i], flen) != 0)
			return false;
		*slot[i] = rpb_slice_make(p + flen, (size_t)(nl - p) - flen);
		p = nl + 1;
	}
	return p == end && (md_slice_eq(out->type, "dir", 3) || md_slice_eq(out->type, "file", 4));
}

bool md_slice_eq(rpb_slice a, const void *b, size_t blen)
{
	return a.len == blen && (blen == 0 || memcmp(a.data, b, blen) == 0);
}

/* ---- namespace operations ---- */

static enum rpb_status get(const struct md_ns *ns, enum rpb_table t, const char *key, size_t klen,
			   struct rpb_err *err)
{
	return ns->b->get(ns->s, t, rpb_slice_make(key, klen), ns->buf, err);
}

/* Copies the id in ns->buf to out; RPB_CORRUPT if it cannot be an id. */
static enum rpb_status take_id(const struct md_ns *ns, const char *key, size_t klen, char *out,
			       size_t *outlen, struct rpb_err *err)
{
	if (ns->buf->len == 0 || ns->buf->len >= MD_ID_MAX)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				   "directory entry %.*s holds a %zu-byte value, not an inode id",
				   (int)klen, key, ns->buf->len);
	memcpy(out, ns->buf->data, ns->buf->len);
	out[ns->buf->len] = '\0';
	*outlen = ns->buf->len;
	return RPB_OK;
}

enum rpb_status md_lookup(const struct md_ns *ns, const char *root, size_t rlen,
			  const struct md_path *p, unsigned ncomp, const char *last, size_t lastlen,
			  char *id, size_t *idlen, struct rpb_err *err)
{
	char key[MD_KEY_MAX];
	memcpy(id, root, rlen);
	id[rlen] = '\0';
	*idlen = rlen;
	for (unsigned i = 0; i <= ncomp; i++) {
		const char *name = i < ncomp ? p->comp[i] : last;
		size_t nlen = i < ncomp ? p->len[i] : lastlen;
		if (nlen == 0)
			break;
		size_t klen = md_name_key(key, id, *idlen, name, nlen);
		enum rpb_status st = get(ns, RPB_T_NAMES, key, klen, err);
		if (st == RPB_NOT_FOUND && ns->blind)
			continue; /* keep walking from the same id: same calls, no failure */
		if (st == RPB_NOT_FOUND)
			return rpb_err_set(err, st, 0, NULL, "no entry %.*s in directory %.*s",
					   (int)nlen, name, (int)*idlen, id);
		if (!st)
			st = take_id(ns, key, klen, id, idlen, err);
		if (st)
			return st;
	}
	return RPB_OK;
}

enum rpb_status md_create(const struct md_ns *ns, const char *parent, size_t plen,
			  const char *name, size_t nlen, const char *id, size_t idlen,
			  enum md_type type, uint64_t now_ms, struct rpb_err *err)
{
	char key[MD_KEY_MAX], rec[MD_REC_MAX];
	size_t klen = md_name_key(key, parent, plen, name, nlen);
	enum rpb_status st = get(ns, RPB_T_NAMES, key, klen, err);
	if (st == RPB_OK)
		return rpb_err_set(err, RPB_EXISTS, 0, NULL, "entry %s exists", key);
	if (st != RPB_NOT_FOUND)
		return st;
	st = ns->b->put(ns->s, RPB_T_NAMES, rpb_slice_make(key, klen), rpb_slice_make(id, idlen),
			err);
	if (!st) {
		size_t n = md_inode_format(rec, type, parent, plen, name, nlen, now_ms, now_ms);
		st = ns->b->put(ns->s, RPB_T_INODES, rpb_slice_make(id, idlen), rpb_slice_make(rec, n),
				err);
	}
	return st;
}

/* The inode of id, parsed into copies of its fields (ns->buf is reused). */
struct inode_copy {
	enum md_type type;
	char parent[MD_ID_MAX], name[MD_NAME_MAX];
	size_t plen, nlen;
	uint64_t created;
};

static enum rpb_status read_inode(const struct md_ns *ns, const char *id, size_t idlen,
				  struct inode_copy *ic, struct rpb_err *err)
{
	enum rpb_status st = get(ns, RPB_T_INODES, id, idlen, err);
	if (st == RPB_NOT_FOUND)
		return ns->blind ? RPB_OK
				 : rpb_err_set(err, st, 0, NULL, "no inode %.*s", (int)idlen, id);
	if (st)
		return st;
	struct md_inode in;
	if (!md_inode_parse(ns->buf->data, ns->buf->len, &in) || in.parent.len >= MD_ID_MAX ||
	    in.name.len >= MD_NAME_MAX)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "inode %.*s holds no inode record",
				   (int)idlen, id);
	ic->type = md_slice_eq(in.type, "dir", 3) ? MD_DIR : MD_FILE;
	memcpy(ic->parent, in.parent.data, in.parent.len);
	ic->plen = in.parent.len;
	memcpy(ic->name, in.name.data, in.name.len);
	ic->nlen = in.name.len;
	ic->created = 0;
	for (size_t i = 0; i < in.created.len; i++)
		ic->created = ic->created * 10 + (uint64_t)(((const char *)in.created.data)[i] - '0');
	return RPB_OK;
}

enum rpb_status md_rename(const struct md_ns *ns, const char *id, size_t idlen,
			  const char *new_parent, size_t nplen, const char *new_name, size_t nnlen,
			  uint64_t now_ms, struct rpb_err *err)
{
	struct inode_copy ic = {0};
	enum rpb_status st = read_inode(ns, id, idlen, &ic, err);
	if (st)
		return st;
	if (ic.plen == nplen && ic.nlen == nnlen && memcmp(ic.parent, new_parent, nplen) == 0 &&
	    memcmp(ic.name, new_name, nnlen) == 0)
		return RPB_OK;
	char newkey[MD_KEY_MAX], oldkey[MD_KEY_MAX], rec[MD_REC_MAX];
	size_t nk = md_name_key(newkey, new_parent, nplen, new_name, nnlen);
	st = get(ns, RPB_T_NAMES, newkey, nk, err);
	if (st == RPB_OK)
		return rpb_err_set(err, RPB_EXISTS, 0, NULL, "entry %s exists", newkey);
	if (st != RPB_NOT_FOUND)
		return st;
	size_t ok = md_name_key(oldkey, ic.parent, ic.plen, ic.name, ic.nlen);
	st = ns->b->del(ns->s, RPB_T_NAMES, rpb_slice_make(oldkey, ok), err);
	if (st == RPB_NOT_FOUND && !ns->blind)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "inode %.*s has no directory entry %s",
				   (int)idlen, id, oldkey);
	if (st && st != RPB_NOT_FOUND)
		return st;
	st = ns->b->put(ns->s, RPB_T_NAMES, rpb_slice_make(newkey, nk), rpb_slice_make(id, idlen),
			err);
	if (!st) {
		size_t n = md_inode_format(rec, ic.type, new_parent, nplen, new_name, nnlen, ic.created,
					   now_ms);
		st = ns->b->put(ns->s, RPB_T_INODES, rpb_slice_make(id, idlen), rpb_slice_make(rec, n),
				err);
	}
	return st;
}

/* The first entry of a directory, copied out of a scan. */
struct first_child {
	char key[MD_KEY_MAX], id[MD_ID_MAX];
	size_t klen, idlen;
	bool found, bad;
};

static int first_child_cb(void *ctx, rpb_slice key, rpb_slice val)
{
	struct first_child *fc = ctx;
	fc->found = true;
	fc->bad = key.len >= MD_KEY_MAX || val.len == 0 || val.len >= MD_ID_MAX;
	fc->klen = key.len < MD_KEY_MAX ? key.len : MD_KEY_MAX - 1;
	memcpy(fc->key, key.data, fc->klen);
	fc->key[fc->klen] = '\0';
	if (!fc->bad) {
		memcpy(fc->id, val.data, val.len);
		fc->id[val.len] = '\0';
		fc->idlen = val.len;
	}
	return 1;
}

/* Deletes everything below directory id, then its inode (not its entry,
 * which the caller removes). Depth-first, one child at a time, so it needs
 * no memory beyond the stack whatever the tree. */
static enum rpb_status delete_tree(const struct md_ns *ns, const char *id, size_t idlen,
				   unsigned depth, bool recursive, struct rpb_err *err)
{
	/* A directory's entries are the keys "<id>/<name>": after "<id>/" and
	 * up to "<id>0", '0' being the byte after '/'. */
	char lo[MD_ID_MAX + 1], hi[MD_ID_MAX + 1];
	memcpy(lo, id, idlen);
	memcpy(hi, id, idlen);
	lo[idlen] = '/';
	hi[idlen] = '0';
	rpb_slice after = rpb_slice_make(lo, idlen + 1), upto = rpb_slice_make(hi, idlen + 1);
	enum rpb_status st;
	for (;;) {
		struct first_child fc;
		fc.found = fc.bad = false;
		st = ns->b->scan(ns->s, RPB_T_NAMES, &after, &upto, 1, first_child_cb, &fc, err);
		if (st)
			return st;
		if (!fc.found || fc.klen <= idlen + 1 || memcmp(fc.key, lo, idlen + 1) != 0)
			break;
		if (fc.bad)
			return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					   "directory entry %s holds no inode id", fc.key);
		if (!recursive)
			return rpb_err_set(err, RPB_EXISTS, 0, NULL,
					   "directory %.*s is not empty (holds %s)", (int)idlen, id,
					   fc.key + idlen + 1);
		if (depth == MD_DEPTH_MAX)
			return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					   "directory %.*s lies deeper than %d levels: a cycle?", (int)idlen,
					   id, MD_DEPTH_MAX);
		st = delete_tree(ns, fc.id, fc.idlen, depth + 1, true, err);
		if (!st)
			st = ns->b->del(ns->s, RPB_T_NAMES, rpb_slice_make(fc.key, fc.klen), err);
		if (st)
			return st;
	}
	st = ns->b->del(ns->s, RPB_T_INODES, rpb_slice_make(id, idlen), err);
	if (st == RPB_NOT_FOUND)
		return ns->blind ? RPB_OK
				 : rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					       "a directory entry points to inode %.*s, which is missing",
					       (int)idlen, id);
	return st;
}

enum rpb_status md_delete(const struct md_ns *ns, const char *id, size_t idlen, bool recursive,
			  struct rpb_err *err)
{
	struct inode_copy ic = {0};
	enum rpb_status st = read_inode(ns, id, idlen, &ic, err);
	if (st)
		return st;
	if (ic.plen == 0 && !ns->blind)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "inode %.*s is the root", (int)idlen, id);
	st = delete_tree(ns, id, idlen, 0, recursive, err);
	if (st)
		return st;
	char key[MD_KEY_MAX];
	size_t klen = md_name_key(key, ic.parent, ic.plen, ic.name, ic.nlen);
	st = ns->b->del(ns->s, RPB_T_NAMES, rpb_slice_make(key, klen), err);
	if (st == RPB_NOT_FOUND)
		return ns->blind ? RPB_OK
				 : rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					       "inode %.*s has no directory entry %s", (int)idlen, id, key);
	return st;
}

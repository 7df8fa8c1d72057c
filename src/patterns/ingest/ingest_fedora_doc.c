/* The Fedora model's names and documents (ingest_fedora.h): UUIDs and
 * pairtree paths from the seed, keys, and the node document's text form,
 * shared by the run and verify so both read and write the same bytes. */
#include <string.h>

#include <openssl/evp.h>
#include <xxhash.h>

#include "fmt.h"
#include "ingest_fedora.h"
#include "rng.h"

/* Apart from the content streams (ingest.h), so minting never shifts the
 * contents the flat model draws. */
#define FED_UUID_STREAM (UINT64_C(1) << 33)

const char *const fed_type_names[FED_NTYPES] = {"binary", "pairtree", "container", "file",
						"tombstone"};

static const char hexdig[] = "0123456789abcdef";

void fed_place(struct fed_path *p, const struct rpb_ingest_opts *o, uint64_t seed, unsigned thread,
	       uint64_t op)
{
	struct rpb_rng r;
	rpb_rng_seed(&r, seed, FED_UUID_STREAM | thread, op);
	unsigned char b[16];
	uint64_t hi = rpb_rng_next(&r), lo = rpb_rng_next(&r);
	for (int i = 0; i < 8; i++) {
		b[i] = (unsigned char)(hi >> (56 - 8 * i));
		b[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4: random */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	char hex[33];
	for (int i = 0; i < 16; i++) {
		hex[2 * i] = hexdig[b[i] >> 4];
		hex[2 * i + 1] = hexdig[b[i] & 15];
	}
	hex[32] = '\0';
	char *u = p->uuid;
	for (int i = 0; i < 32; i++) {
		if (i == 8 || i == 12 || i == 16 || i == 20)
			*u++ = '-';
		*u++ = hex[i];
	}
	*u = '\0';

	/* Pairtree levels from the digits (Fedora's UUIDPathMinter), then the
	 * node itself. length * count <= 32 digits (the options' ranges). */
	unsigned count = (unsigned)o->pairtree_count, len = (unsigned)o->pairtree_length;
	p->at[0][0] = '/';
	p->at[0][1] = '\0';
	p->len[0] = 1;
	size_t n = 0;
	char path[FED_PATH_MAX];
	for (unsigned l = 0; l < count; l++) {
		path[n++] = '/';
		memcpy(path + n, hex + (size_t)l * len, len);
		n += len;
		memcpy(p->at[l + 1], path, n);
		p->at[l + 1][n] = '\0';
		p->len[l + 1] = n;
	}
	path[n++] = '/';
	memcpy(path + n, p->uuid, FED_UUID_LEN);
	n += FED_UUID_LEN;
	memcpy(p->at[count + 1], path, n);
	p->at[count + 1][n] = '\0';
	p->len[count + 1] = n;
	p->depth = count + 1;
}

void fed_probe_place(struct fed_path *p, unsigned thread, uint64_t probe)
{
	memset(p->uuid, 0, sizeof p->uuid);
	p->at[0][0] = '/';
	p->at[0][1] = '\0';
	p->len[0] = 1;
	char *e = rpb_fmt_str(p->at[1], FED_PROBE_CONTAINER);
	*e = '\0';
	p->len[1] = (size_t)(e - p->at[1]);
	e = rpb_fmt_str(p->at[2], FED_PROBE_CONTAINER "/");
	e = rpb_fmt_u64(e, thread, 4);
	*e++ = '-';
	e = rpb_fmt_u64(e, probe, 12);
	*e = '\0';
	p->len[2] = (size_t)(e - p->at[2]);
	p->depth = 2;
}

size_t fed_node_key(char *buf, const char *tag, const char *path, size_t len)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "f/"), tag);
	p = rpb_fmt_mem(p, path, len);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t fed_block_key(char *buf, const char *tag, const char *path, size_t len, uint64_t block)
{
	size_t n = fed_node_key(buf, tag, path, len);
	char *p = buf + n;
	*p++ = '#';
	p = rpb_fmt_u64(p, block, 6);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t fed_bucket_key(char *buf, const char *tag, const char *path, size_t len, const char *id)
{
	size_t n = fed_node_key(buf, tag, path, len);
	char *p = rpb_fmt_str(buf + n, "#");
	p = rpb_fmt_str(p, id);
	*p = '\0';
	return (size_t)(p - buf);
}

bool fed_bucket_id(const char *name, size_t nlen, unsigned id_len, char id[FED_BUCKET_ID_MAX + 1])
{
	char sha[FED_SHA1_HEX + 1];
	if (id_len < 1 || id_len > FED_BUCKET_ID_MAX || !fed_sha1_hex(name, nlen, sha))
		return false;
	memcpy(id, sha, id_len);
	id[id_len] = '\0';
	return true;
}

size_t fed_content_key(char *buf, const char *tag, const char *path, size_t len)
{
	size_t n = fed_node_key(buf, tag, path, len);
	char *p = rpb_fmt_str(buf + n, "/" FED_CONTENT_NAME);
	*p = '\0';
	return (size_t)(p - buf);
}

size_t fed_ref_key(char *buf, const char *tag, const char *sha1)
{
	char *p = rpb_fmt_str(rpb_fmt_str(rpb_fmt_str(buf, "r/"), tag), "/");
	p = rpb_fmt_str(rpb_fmt_str(p, sha1), "-ref");
	*p = '\0';
	return (size_t)(p - buf);
}

size_t fed_ref_format(char *buf, const char *sha1, uint64_t count)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "sha1="), sha1);
	p = rpb_fmt_u64(rpb_fmt_str(p, "\nrefCount="), count, 0);
	*p++ = '\n';
	return (size_t)(p - buf);
}

bool fed_ref_parse(const void *buf, size_t n, uint64_t *count)
{
	const char *p = buf, *end = p + n, *at = NULL;
	for (const char *q = p; q + 9 <= end; q++)
		if (!memcmp(q, "refCount=", 9) && (q == p || q[-1] == '\n')) {
			at = q + 9;
			break;
		}
	if (!at)
		return false;
	uint64_t v = 0;
	for (; at < end && *at >= '0' && *at <= '9'; at++)
		v = v * 10 + (uint64_t)(*at - '0');
	*count = v;
	return true;
}

const char *fed_name(const char *path, size_t len, size_t *nlen)
{
	size_t i = len;
	while (i > 0 && path[i - 1] != '/')
		i--;
	*nlen = len - i;
	return path + i;
}

/* ---- documents ---- */

static bool field_is(const char *k, size_t klen, const char *name)
{
	return strlen(name) == klen && memcmp(k, name, klen) == 0;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0 || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

bool fed_doc_parse(const void *buf, size_t n, struct fed_doc *d)
{
	memset(d, 0, sizeof *d);
	d->type = FED_NTYPES;
	if (!buf) /* an empty value may come back as NULL; NULL + 0 is undefined */
		return false;
	const char *p = buf, *end = p + n;
	bool inline_store = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false; /* no empty line: a header cut short */
		if (nl == p) {
			p = nl + 1; /* the empty line: the content follows */
			break;
		}
		const char *eq = memchr(p, '=', (size_t)(nl - p));
		if (!eq)
			return false;
		size_t klen = (size_t)(eq - p);
		rpb_slice v = rpb_slice_make(eq + 1, (size_t)(nl - eq - 1));
		if (field_is(p, klen, "child")) {
			if (!d->child_lines.data)
				d->child_lines.data = p;
			d->child_lines.len = (size_t)(nl + 1 - (const char *)d->child_lines.data);
		} else if (field_is(p, klen, "bucket")) {
			if (!d->bucket_lines.data)
				d->bucket_lines.data = p;
			d->bucket_lines.len = (size_t)(nl + 1 - (const char *)d->bucket_lines.data);
		} else if (field_is(p, klen, "member")) {
			if (!d->member_lines.data)
				d->member_lines.data = p;
			d->member_lines.len = (size_t)(nl + 1 - (const char *)d->member_lines.data);
		} else if (field_is(p, klen, "bucket_id_length")) {
			if (!parse_u64(v.data, v.len, &d->bucket_len) || d->bucket_len > FED_BUCKET_ID_MAX)
				return false;
		} else if (field_is(p, klen, "type")) {
			for (int t = 0; t < FED_NTYPES; t++)
				if (v.len == strlen(fed_type_names[t]) &&
				    !memcmp(v.data, fed_type_names[t], v.len))
					d->type = (enum fed_type)t;
		} else if (field_is(p, klen, "created")) {
			d->created = v;
		} else if (field_is(p, klen, "modified")) {
			d->modified = v;
		} else if (field_is(p, klen, "mime")) {
			d->mime = v;
		} else if (field_is(p, klen, "sha1") || field_is(p, klen, "xxh3")) {
			d->digest = v;
			d->digest_is_sha1 = p[0] == 's';
		} else if (field_is(p, klen, "op")) {
			d->op = v;
		} else if (field_is(p, klen, "probe")) {
			d->probe = v;
		} else if (field_is(p, klen, "title")) {
			d->title = v;
		} else if (field_is(p, klen, "store")) {
			d->is_file = v.len == 4 && !memcmp(v.data, "file", 4);
			inline_store = v.len == 6 && !memcmp(v.data, "inline", 6);
		} else if (field_is(p, klen, "size")) {
			if (!parse_u64(v.data, v.len, &d->size))
				return false;
			d->has_size = true;
		} else if (field_is(p, klen, "children")) {
			if (!parse_u64(v.data, v.len, &d->children))
				return false;
		} else if (field_is(p, klen, "blocks")) {
			if (!parse_u64(v.data, v.len, &d->blocks))
				return false;
		}
		p = nl + 1;
	}
	if (d->type == FED_NTYPES)
		return false;
	d->content = rpb_slice_make(p, (size_t)(end - p));
	if (d->type == FED_BINARY && (!d->has_size || (!d->is_file && !inline_store) ||
				      (inline_store && d->content.len != d->size)))
		return false;
	return true;
}

void fed_block_names(const void *block, size_t n, fed_name_fn fn, void *ctx)
{
	if (!block) /* an empty value may come back as NULL; NULL + 0 is undefined */
		return;
	const char *p = block, *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (eol > p)
			fn(ctx, p, (size_t)(eol - p));
		p = eol + 1;
	}
}

/* fn with the value of each line of a run of "<field>=" lines. */
static void each_value(rpb_slice lines, size_t flen, fed_name_fn fn, void *ctx)
{
	/* No lines: a NULL slice, and NULL + 0 is undefined in C. */
	if (!lines.data)
		return;
	const char *p = lines.data, *end = p + lines.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if ((size_t)(eol - p) > flen)
			fn(ctx, p + flen, (size_t)(eol - p) - flen);
		p = eol + 1;
	}
}

void fed_doc_children(const struct fed_doc *d, fed_name_fn fn, void *ctx)
{
	each_value(d->child_lines, 6, fn, ctx); /* after "child=" */
}

void fed_doc_buckets(const struct fed_doc *d, fed_name_fn fn, void *ctx)
{
	each_value(d->bucket_lines, 7, fn, ctx); /* after "bucket=" */
}

void fed_doc_members(const struct fed_doc *d, fed_name_fn fn, void *ctx)
{
	each_value(d->member_lines, 7, fn, ctx); /* after "member=" */
}

/* ---- ModeShape's document, sized ----
 *
 * ModeShape 4.5 keeps each node as a document (DocumentTranslator): its key,
 * its parent's key and its properties grouped under each namespace's full
 * URI, names as {"$name": ...}, dates as {"$date": ...}, URIs as
 * {"$uri": ...}, a stored binary as {"sha1": ..., "len": ...}. The ms= line
 * carries that structure, with the properties Fedora 4.5 gives each node
 * type (fcrepo-kernel-modeshape), as JSON text, so a document puts about the
 * bytes ModeShape's did; verify and the run read only the fields above it.
 * Node keys are ModeShape's: a 7-character source key, a 7-character
 * workspace key and the node's 36-character identifier (here the hash of
 * its path, as hex in UUID form). */
static char *ms_key(char *p, const char *tag, const char *path, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	uint64_t a = XXH3_64bits(path, len), b = XXH3_64bits_withSeed(path, len, 1);
	p = rpb_fmt_str(p, "\"87a0a8c");
	p = rpb_fmt_mem(p, tag, strlen(tag) < 7 ? strlen(tag) : 7);
	for (int i = 0; i < 32; i++) {
		if (i == 8 || i == 12 || i == 16 || i == 20)
			*p++ = '-';
		uint64_t v = i < 16 ? a : b;
		*p++ = hx[(v >> (60 - 4 * (i % 16))) & 15];
	}
	*p++ = '"';
	return p;
}

static char *ms_date(char *p, const char *name, uint64_t ms)
{
	p = rpb_fmt_str(rpb_fmt_str(rpb_fmt_str(p, "\""), name), "\":{\"$date\":\"");
	p = ingest_iso_ms(p, ms);
	return rpb_fmt_str(p, "\"}");
}

#define MS_JCR "\"http://www.jcp.org/jcr/1.0\":{"
#define MS_FEDORA "\"http://fedora.info/definitions/v4/repository#\":{"
#define MS_BY "\"createdBy\":\"bypassAdmin\",\"lastModifiedBy\":\"bypassAdmin\""

static char *ms_line(char *p, const struct fed_head *h)
{
	if (!h->path)
		return p;
	static const char *const primary[FED_NTYPES] = {"nt:resource", "nt:folder", "nt:folder",
							"nt:file", "nt:folder"};
	static const char *const mixins[FED_NTYPES] = {
		"{\"$name\":\"fedora:Binary\"},{\"$name\":\"fedora:Resource\"}",
		"{\"$name\":\"fedora:Pairtree\"}",
		"{\"$name\":\"fedora:Container\"},{\"$name\":\"fedora:Resource\"},"
		"{\"$name\":\"mix:created\"},{\"$name\":\"mix:lastModified\"}",
		"{\"$name\":\"fedora:NonRdfSourceDescription\"},{\"$name\":\"fedora:Resource\"},"
		"{\"$name\":\"mix:created\"},{\"$name\":\"mix:lastModified\"}",
		"{\"$name\":\"fedora:Tombstone\"}"};
	size_t len = strlen(h->path), plen;
	const char *name = fed_name(h->path, len, &plen);
	plen = name > h->path + 1 ? (size_t)(name - h->path) - 1 : 1;
	uint64_t created = h->created_ms ? h->created_ms : h->modified_ms;
	p = rpb_fmt_str(p, "\nms={\"metadata\":{\"id\":");
	p = ms_key(p, h->tag, h->path, len);
	p = rpb_fmt_str(p, ",\"contentType\":\"application/json\"},\"content\":{\"key\":");
	p = ms_key(p, h->tag, h->path, len);
	p = rpb_fmt_str(p, ",\"parent\":[");
	p = ms_key(p, h->tag, h->path, plen);
	p = rpb_fmt_str(rpb_fmt_str(p, "],\"properties\":{" MS_JCR "\"primaryType\":{\"$name\":\""),
			primary[h->type]);
	p = rpb_fmt_str(rpb_fmt_str(rpb_fmt_str(p, "\"},\"mixinTypes\":["), mixins[h->type]), "],");
	p = ms_date(p, "created", created);
	p = rpb_fmt_str(p, ",");
	p = ms_date(p, "lastModified", h->modified_ms);
	p = rpb_fmt_str(p, "," MS_BY "}");
	if (h->type == FED_BINARY) {
		p = rpb_fmt_str(p, ",\"http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#\":{"
				   "\"hasMimeType\":\"");
		p = rpb_fmt_str(rpb_fmt_str(p, h->mime ? h->mime : ""), "\",\"filename\":\"\"}");
		p = rpb_fmt_u64(rpb_fmt_str(p, ",\"http://www.loc.gov/premis/rdf/v1#\":{\"hasSize\":"),
				h->size, 0);
		p = rpb_fmt_str(p, ",\"hasMessageDigest\":{\"$uri\":\"urn:sha1:");
		p = rpb_fmt_str(rpb_fmt_str(p, h->digest ? h->digest : ""), "\"}}");
		if (h->is_file) {
			p = rpb_fmt_str(p, ",\"data\":{\"sha1\":\"");
			p = rpb_fmt_u64(rpb_fmt_str(rpb_fmt_str(p, h->digest ? h->digest : ""),
						    "\",\"len\":"),
					h->size, 0);
			p = rpb_fmt_str(p, "}");
		}
	} else if (h->type != FED_PAIRTREE) {
		p = rpb_fmt_str(p, "," MS_FEDORA);
		p = ms_date(p, "created", created);
		p = rpb_fmt_str(p, ",");
		p = ms_date(p, "lastModified", h->modified_ms);
		p = rpb_fmt_str(p, "," MS_BY "}");
	}
	p = rpb_fmt_str(p, "},\"childrenInfo\":{\"count\":");
	p = rpb_fmt_u64(p, h->children, 0);
	return rpb_fmt_str(p, "}}}");
}

/* The header's text: every field on its own line, in the documented order. */
static size_t head_format(char *buf, const struct fed_head *h, const struct fed_doc *base)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "type="), fed_type_names[h->type]);
	p = rpb_fmt_str(p, "\ncreated=");
	if (!h->created_ms && base && base->created.len)
		p = rpb_fmt_mem(p, base->created.data, base->created.len);
	else
		p = ingest_iso_ms(p, h->created_ms ? h->created_ms : h->modified_ms);
	p = ingest_iso_ms(rpb_fmt_str(p, "\nmodified="), h->modified_ms);
	if (h->type == FED_BINARY) {
		p = rpb_fmt_u64(rpb_fmt_str(p, "\nsize="), h->size, 0);
		p = rpb_fmt_str(rpb_fmt_str(p, "\nmime="), h->mime ? h->mime : "");
		if (h->digest)
			p = rpb_fmt_str(rpb_fmt_str(p, h->digest_is_sha1 ? "\nsha1=" : "\nxxh3="),
					h->digest);
		p = rpb_fmt_str(p, h->is_file ? "\nstore=file" : "\nstore=inline");
	}
	if (h->made_kind) {
		p = rpb_fmt_str(p, h->made_kind == 'o' ? "\nop=" : "\nprobe=");
		p = rpb_fmt_u64(p, h->made_thread, 0);
		*p++ = '/';
		p = rpb_fmt_u64(p, h->made_n, 0);
	}
	if (h->title.len) {
		size_t tl = h->title.len < 200 ? h->title.len : 200;
		p = rpb_fmt_mem(rpb_fmt_str(p, "\ntitle="), h->title.data, tl);
	}
	if (h->type != FED_BINARY) {
		p = rpb_fmt_u64(rpb_fmt_str(p, "\nchildren="), h->children, 0);
		p = rpb_fmt_u64(rpb_fmt_str(p, "\nblocks="), h->blocks, 0);
		if (h->bucket_len)
			p = rpb_fmt_u64(rpb_fmt_str(p, "\nbucket_id_length="), h->bucket_len, 0);
	}
	p = ms_line(p, h);
	*p++ = '\n';
	return (size_t)(p - buf);
}

enum rpb_status fed_doc_write(struct rpb_buf *out, const struct fed_head *h,
			      const struct fed_doc *base, bool keep_children,
			      const char *extra_child, size_t extra_len, rpb_slice content,
			      struct rpb_err *err)
{
	size_t kept = keep_children && base ? base->child_lines.len : 0;
	size_t buckets = h->bucket_len && base ? base->bucket_lines.len : 0;
	size_t need = FED_HEAD_MAX + kept + buckets + 16 + (extra_child ? extra_len + 8 : 0) + 1 +
		      content.len;
	enum rpb_status st = rpb_buf_reserve(out, need, err);
	if (st)
		return st;
	unsigned char *at = out->data;
	size_t n = head_format((char *)at, h, base);
	/* The bucket ids, in the order they appeared (ModeShape's buckets array). */
	const char *b = buckets ? base->bucket_lines.data : NULL, *bend = b + buckets;
	size_t dl = h->drop_bucket ? strlen(h->drop_bucket) : 0;
	while (b && b < bend) {
		const char *nl = memchr(b, '\n', (size_t)(bend - b));
		size_t ll = (size_t)((nl ? nl + 1 : bend) - b);
		if (!(dl && ll == 7 + dl + 1 && !memcmp(b + 7, h->drop_bucket, dl))) {
			memcpy(at + n, b, ll);
			n += ll;
		}
		b += ll;
	}
	if (h->bucket_len && h->new_bucket)
		n = (size_t)((unsigned char *)rpb_fmt_str(
				     rpb_fmt_str(rpb_fmt_str((char *)at + n, "bucket="), h->new_bucket),
				     "\n") -
			     at);
	if (kept) {
		memcpy(at + n, base->child_lines.data, kept);
		n += kept;
	}
	if (extra_child) {
		memcpy(at + n, "child=", 6);
		memcpy(at + n + 6, extra_child, extra_len);
		at[n + 6 + extra_len] = '\n';
		n += 6 + extra_len + 1;
	}
	at[n++] = '\n';
	if (content.len) {
		memcpy(at + n, content.data, content.len);
		n += content.len;
	}
	out->len = n;
	return RPB_OK;
}

bool fed_sha1_hex(const void *p, size_t n, char out[FED_SHA1_HEX + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	if (EVP_Digest(p, n, md, &len, EVP_sha1(), NULL) != 1 || len != 20)
		return false;
	for (unsigned i = 0; i < 20; i++) {
		out[2 * i] = hexdig[md[i] >> 4];
		out[2 * i + 1] = hexdig[md[i] & 15];
	}
	out[FED_SHA1_HEX] = '\0';
	return true;
}

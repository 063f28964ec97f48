/* XML parsers with entity expansion. */
#include <expat.h>
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdio.h>

#define PARSE_OPTS (XML_PARSE_NOENT | XML_PARSE_NOCDATA)
#define SAFE_OPTS (XML_PARSE_NONET | XML_PARSE_NOCDATA)

/* An uploaded document parsed with entity substitution. */
xmlDocPtr parse_upload(int sock)
{
	char body[65536];
	ssize_t n = recv(sock, body, sizeof body, 0);

	if (n <= 0)
		return NULL;
	return xmlReadMemory(body, (int)n, "upload.xml", NULL, XML_PARSE_NOENT | XML_PARSE_NONET); // want "c.xml.xxe"
}

xmlDocPtr parse_config(const char *path)
{
	return xmlReadFile(path, NULL, PARSE_OPTS); // want "c.xml.xxe"
}

xmlDocPtr parse_with_ctxt(xmlParserCtxtPtr ctxt, const char *path)
{
	int opts = XML_PARSE_NONET;

	opts |= XML_PARSE_DTDLOAD;
	return xmlCtxtReadFile(ctxt, path, NULL, opts); // want "c.xml.xxe"
}

void legacy_init(void)
{
	xmlLoadExtDtdDefaultValue = XML_DETECT_IDS | XML_COMPLETE_ATTRS; // want "c.xml.xxe"
	xmlSubstituteEntitiesDefault(1); // want "c.xml.xxe"
}

void setup_expat(XML_Parser parser)
{
	XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_ALWAYS); // want "c.xml.xxe"
}

xmlTextReaderPtr open_reader(const char *path)
{
	xmlTextReaderPtr r = xmlReaderForFile(path, NULL, 0);

	if (r)
		xmlTextReaderSetParserProp(r, XML_PARSER_SUBST_ENTITIES, 1); // want "c.xml.xxe"
	return r;
}

/* Safe configurations. */
xmlDocPtr parse_upload_safe(const char *body, int n)
{
	return xmlReadMemory(body, n, "upload.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS); // safe "c.xml.xxe"
}

xmlDocPtr parse_config_safe(const char *path)
{
	return xmlReadFile(path, NULL, SAFE_OPTS); // safe "c.xml.xxe"
}

xmlDocPtr parse_cleared(xmlParserCtxtPtr ctxt, const char *path, int user_opts)
{
	int opts = user_opts | XML_PARSE_NOENT;

	opts &= ~XML_PARSE_NOENT;
	return xmlCtxtReadFile(ctxt, path, NULL, opts); // safe "c.xml.xxe"
}

void setup_expat_safe(XML_Parser parser)
{
	XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER); // safe "c.xml.xxe"
	xmlSubstituteEntitiesDefault(0); // safe "c.xml.xxe"
	xmlLoadExtDtdDefaultValue = 0; // safe "c.xml.xxe"
}

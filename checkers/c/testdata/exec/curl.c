/* libcurl request URLs. */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

/* A webhook service: the callback URL comes from the request body. */
int deliver_webhook(CURL *curl, int client)
{
	char url[1024];
	ssize_t n = recv(client, url, sizeof url - 1, 0);

	if (n <= 0)
		return -1;
	url[n] = '\0';
	curl_easy_setopt(curl, CURLOPT_URL, url); // want "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

/* An image proxy reading the target from stdin. */
int proxy_fetch(CURL *curl)
{
	char target[512], url[600];

	if (!fgets(target, sizeof target, stdin))
		return -1;
	snprintf(url, sizeof url, "http://%s", target);
	curl_easy_setopt(curl, CURLOPT_URL, url); // want "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

/* A command-line tool that fetches the URL its user gave it: not SSRF. */
int main(int argc, char **argv)
{
	CURL *curl = curl_easy_init();

	if (!curl || argc < 2)
		return 1;
	curl_easy_setopt(curl, CURLOPT_URL, argv[1]); // safe "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

/* A CGI script proxying the query string. */
int cgi_proxy(CURL *curl)
{
	const char *target = getenv("QUERY_STRING");

	if (!target)
		return -1;
	curl_easy_setopt(curl, CURLOPT_URL, target); // want "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

/* Compared with an allowed prefix first. */
int deliver_webhook_checked(CURL *curl, int client)
{
	char url[1024];
	ssize_t n = recv(client, url, sizeof url - 1, 0);

	if (n <= 0)
		return -1;
	url[n] = '\0';
	if (strncmp(url, "https://hooks.example.com/", 26) != 0)
		return -1;
	curl_easy_setopt(curl, CURLOPT_URL, url); // safe "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

/* A fixed URL, and a URL from a parameter. */
int check_status(CURL *curl, const char *base)
{
	curl_easy_setopt(curl, CURLOPT_URL, "https://status.example.com/health"); // safe "c.ssrf.curl-url"
	curl_easy_setopt(curl, CURLOPT_URL, base); // safe "c.ssrf.curl-url"
	return curl_easy_perform(curl);
}

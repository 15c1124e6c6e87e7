this is not a shader <script>alert(1)</script>

/**
 * Investigations ordered in Indian and US outpatient clinics: full name, the names and abbreviations doctors and
 * recognisers use, and the LOINC code only where one code clearly is that test (a wrong code is worse than none, so
 * most tests, every imaging study and every test whose specimen or method is not stated carry no code).
 *
 * One test a line: `name | aliases (comma separated) | LOINC | parts`. Aliases go through the structurer's text
 * normalisation, so they can be written as written ("HbA1c") or as spoken ("h b a one c", "two d echo").
 * - `=alias`: a name in its own right, shown as said ("lipid panel" stays "lipid panel", not "lipid profile").
 * - `~alias`: a word that names this test only inside a list of tests or after "check"/"test for" ("HIV" among
 *   "CBC, HIV, HBsAg"); alone it is the disease or the organ.
 * - parts: tests included in this one, so "CBC with platelet count" is one test, not two.
 * A `# section (site)` heading marks tests named together with what they look at ("x-ray of both knees").
 */
const TABLE = `
# haematology
complete blood count|cbc,hemogram,haemogram,full blood count,fbc,complete haemogram,complete hemogram,cbp,complete blood picture,blood count,blood counts,=cbc with differential,cbc with diff|58410-2|haemoglobin,platelet count,total leucocyte count,differential leucocyte count,haematocrit,red cell indices,red blood cell count
haemoglobin|hemoglobin,hb,hgb,hb level,haemoglobin level,hemoglobin level,hb percent|718-7
haematocrit|hematocrit,hct,packed cell volume,pcv|4544-3
platelet count|platelets,platelet counts|777-3
total leucocyte count|tlc,total leukocyte count,total wbc count,wbc count,white cell count,white blood cell count,total count|6690-2
differential leucocyte count|dlc,differential count,differential leukocyte count,tc dc
red blood cell count|rbc count,red cell count|789-8
red cell indices|rbc indices,mcv mch mchc
absolute eosinophil count|aec,absolute eosinophils,eosinophil count|711-2
erythrocyte sedimentation rate|esr,sed rate,sedimentation rate|30341-2
reticulocyte count|retic count,reticulocytes
peripheral smear|peripheral blood smear,peripheral smear examination,general blood picture,gbp,blood film,peripheral blood film
peripheral smear for malarial parasite|peripheral smear for malaria,peripheral smear for malarial parasites,peripheral smear for mp,smear for malarial parasite,smear for malaria parasite,mp smear,malaria smear,blood smear for malaria,thick and thin smear,malarial parasite,smear for mp|32700-7
malaria antigen rapid card test|=malaria antigen test,malaria antigen card test,malaria rapid test,malaria card test,malaria rapid diagnostic test,malaria antigen,rapid malaria test,malaria rdt,~malaria
sickling test|sickle cell test,sickling
haemoglobin electrophoresis|hemoglobin electrophoresis,hb electrophoresis,hplc for haemoglobin variants,hb hplc
g6pd assay|g6pd,g6pd level,g6pd deficiency test
coombs test|direct coombs test,dct,indirect coombs test,ict,antiglobulin test
bleeding time and clotting time|bt ct,bleeding time,clotting time
blood grouping and rh typing|blood group,blood grouping,abo rh,blood group and rh typing,blood grouping and typing,abo and rh typing,blood group and rh|882-1
bone marrow aspiration|bone marrow biopsy,bone marrow examination,bma

# coagulation
prothrombin time/inr|pt inr,pt/inr,pt and inr,prothrombin time and inr,pt with inr
prothrombin time||5902-2
inr|international normalised ratio,international normalized ratio|6301-6
activated partial thromboplastin time|aptt,aptt test|3173-2
d-dimer|d dimer
fibrinogen|serum fibrinogen,plasma fibrinogen|3255-7
coagulation profile|coagulation panel,clotting profile,coagulation studies

# diabetes
fasting blood sugar|fasting blood glucose,fbs,fasting sugar,fasting glucose,fasting plasma glucose,fpg,=fasting blood glucose|1558-6
postprandial blood sugar|ppbs,post prandial blood sugar,pp sugar,pp blood sugar,post meal sugar,postprandial glucose,post prandial sugar,plbs,2 hour postprandial glucose
random blood sugar|rbs,random sugar,random glucose,random blood glucose,=random blood glucose|2345-7
blood sugar|blood glucose,sugar test,blood sugar test,~sugar,~sugars
glycated haemoglobin (hba1c)|hba1c,hb a1c,a1c,a 1 c,hemoglobin a one c,haemoglobin a one c,hba 1 c,glycated haemoglobin,glycosylated haemoglobin,glycated hemoglobin,glycosylated hemoglobin,=hemoglobin a1c,=haemoglobin a1c|4548-4
oral glucose tolerance test|ogtt,glucose tolerance test,gtt,75 gram ogtt,75 g ogtt,oral gtt
glucose challenge test|gct,=1 hour glucose challenge test,=one hour glucose challenge test,50 gram glucose challenge test,50 g gct
fasting insulin|serum insulin,insulin level|20448-7
c-peptide|c peptide,serum c peptide,fasting c peptide
urine sugar|urine glucose,urine for sugar

# lipids
lipid profile|=fasting lipid profile,=lipid panel,=fasting lipid panel,fasting lipids,cholesterol profile,lipids,lipid levels,cholesterol panel|24331-1|total cholesterol,hdl cholesterol,ldl cholesterol,serum triglycerides
total cholesterol|serum cholesterol,cholesterol level|2093-3
hdl cholesterol|hdl|2085-9
ldl cholesterol|ldl,direct ldl
serum triglycerides|triglycerides,tg level,triglyceride level|2571-8
lipoprotein (a)|lp a,lipoprotein a
apolipoprotein b|apo b,apob|1884-6

# liver
liver function test|lft,lfts,liver function tests,liver profile,liver panel,hepatic function panel,=hepatic panel,liver enzymes,lft panel|24325-3|serum bilirubin,sgot,sgpt,alkaline phosphatase,serum albumin,total protein
serum bilirubin|bilirubin,total bilirubin,s bilirubin,bilirubin level|1975-2
direct bilirubin|conjugated bilirubin|1968-7
sgpt|=alt,alanine aminotransferase,alanine transaminase|1742-6
sgot|=ast,aspartate aminotransferase,aspartate transaminase|1920-8
alkaline phosphatase|alp,serum alkaline phosphatase|6768-6
gamma-glutamyl transferase (ggt)|ggt,gamma gt,ggtp,gamma glutamyl transferase|2324-2
serum albumin|albumin,albumin level,s albumin|1751-7
total protein|serum protein,total proteins,serum total protein|2885-2
serum ammonia|ammonia,blood ammonia
hepatitis B surface antigen (HBsAg)|hbsag,hepatitis b surface antigen,australia antigen,hbs ag,hbs antigen|5196-1
hepatitis b e antigen|hbeag
hepatitis b viral load|hbv dna,hbv viral load
anti hbs antibody|anti hbs,hbs antibody,hepatitis b antibody
anti hcv antibody|anti hcv,hcv antibody,hepatitis c antibody,~hcv|16128-1
hcv rna|hcv viral load,hcv rna pcr
hepatitis a igm|anti hav igm,hav igm,hepatitis a antibody
hepatitis e igm|anti hev igm,hev igm
viral markers|viral hepatitis markers,hepatitis panel,hepatitis markers,viral serology panel
fibroscan|liver fibroscan,transient elastography

# kidney
kidney function test|kft,rft,renal function test,kidney function tests,renal function tests,renal profile,renal panel,=kidney function panel,=renal function panel,kidney profile|24362-6|blood urea,serum creatinine,serum electrolytes
serum creatinine|creatinine,s creatinine,creatinine level,blood creatinine|2160-0
blood urea|urea,serum urea,blood urea level
blood urea nitrogen|bun|3094-0
estimated glomerular filtration rate (eGFR)|egfr,estimated gfr,gfr
cystatin c|serum cystatin c
serum uric acid|uric acid,s uric acid,uric acid level|3084-1
basic metabolic panel|bmp,=basic metabolic profile,chem 7,chem seven|24321-2
comprehensive metabolic panel|cmp,=comprehensive metabolic profile,chem 14,chem fourteen|24323-8
24 hour urine protein|24 hour urine for protein,urine protein 24 hours,24 hour urinary protein,24 hr urine protein,24 hour urine total protein|2889-4
urine albumin creatinine ratio|uacr,urine acr,albumin creatinine ratio,urine albumin to creatinine ratio,=urine albumin to creatinine ratio,spot urine albumin creatinine ratio|9318-7
urine microalbumin|microalbumin,urine micro albumin,microalbuminuria test|14957-5
urine protein creatinine ratio|upcr,urine pcr,protein creatinine ratio,spot urine protein creatinine ratio
24 hour urine creatinine clearance|creatinine clearance
24 hour urine calcium|urine calcium
kidney stone analysis|stone analysis,calculus analysis

# electrolytes and minerals
serum electrolytes|electrolytes,electrolyte panel,s electrolytes,serum sodium and potassium,sodium potassium,electrolyte levels|24326-1|serum sodium,serum potassium,serum chloride
serum sodium|~sodium,s sodium,sodium level|2951-2
serum potassium|~potassium,s potassium,potassium level|2823-3
serum chloride|chloride,s chloride|2075-0
serum bicarbonate|bicarbonate,serum bicarb,s bicarbonate|1963-8
serum calcium|calcium level,s calcium,~calcium,ionised calcium,ionized calcium|17861-6
serum phosphorus|phosphorus,serum phosphate,phosphate,s phosphorus|2777-1
serum magnesium|magnesium,s magnesium,magnesium level|19123-9
arterial blood gas|abg,blood gas,arterial blood gas analysis,abg analysis
serum lactate|lactate,blood lactate,lactate level
serum osmolality|osmolality,plasma osmolality
urine sodium|spot urine sodium,urine electrolytes

# pancreas and gut
serum amylase|amylase|1798-8
serum lipase|lipase|3040-3
h. pylori stool antigen test|h pylori stool antigen,stool h pylori antigen,stool for h pylori antigen,helicobacter pylori stool antigen,h pylori antigen test,h pylori stool test
urea breath test|h pylori breath test,c13 urea breath test,c 13 urea breath test
hydrogen breath test|lactose breath test,lactulose breath test
h. pylori serology|h pylori antibody,h pylori igg,helicobacter pylori antibody
faecal calprotectin|fecal calprotectin,stool calprotectin,calprotectin
tissue transglutaminase antibody|ttg iga,anti ttg,tissue transglutaminase iga,ttg antibody,celiac serology,coeliac serology

# cardiac markers
troponin|trop,troponin test,cardiac troponin,hs troponin,high sensitivity troponin
troponin i|trop i,cardiac troponin i|10839-9
troponin t|trop t,cardiac troponin t|6598-7
ck-mb|ck mb,cpk mb,creatine kinase mb|13969-1
creatine kinase|cpk,serum cpk,creatine phosphokinase,cpk total|2157-6
b-type natriuretic peptide (BNP)|bnp,brain natriuretic peptide,b type natriuretic peptide|30934-4
nt-probnp|nt pro bnp,ntprobnp,pro bnp,probnp,n terminal pro bnp|33762-6
lactate dehydrogenase|ldh,serum ldh|2532-0
high sensitivity crp|hs crp,hscrp,high sensitivity c reactive protein|30522-7
homocysteine|serum homocysteine,plasma homocysteine|13965-9

# inflammation and immunology
c-reactive protein|crp,c reactive protein,crp level,quantitative crp|1988-5
procalcitonin|pct,serum procalcitonin|33959-8
rheumatoid factor|ra factor,ra test,rheumatoid factor test|11572-5
anti ccp antibody|anti ccp,anti cyclic citrullinated peptide,accp
antinuclear antibody|ana,ana test,ana by ifa,ana profile,ana blot
anti dsdna antibody|anti dsdna,dsdna,anti double stranded dna
ena profile|extractable nuclear antigen,ena panel
anca|p anca,c anca,anca panel
complement c3 and c4|c3 c4,complement levels,serum complement
hla-b27|hla b27,hla b 27,hlab 27,hla b27 typing,hla b27 pcr
aso titre|aso,aso titer,antistreptolysin o,antistreptolysin o titre,asot
serum total ige|total ige,ige level,serum ige,ige|19113-0
allergy panel|allergen panel,specific ige panel,food allergy panel,inhalant allergy panel,allergy test,allergy testing,specific ige
skin prick test|skin prick testing,allergy skin test,patch test,skin patch test
serum protein electrophoresis|spep,protein electrophoresis,serum electrophoresis
immunoglobulin levels|serum immunoglobulins,igg iga igm
serum ace level|serum ace,angiotensin converting enzyme level

# endocrine
thyroid function test|tft,thyroid profile,t3 t4 tsh,thyroid panel,thyroid function tests,thyroid tests,~thyroid,=thyroid profile|
thyroid stimulating hormone (TSH)|tsh,serum tsh,s tsh,thyroid stimulating hormone,tsh level,ultrasensitive tsh,us tsh|3016-3
free t4|ft4,free thyroxine,serum free t4|3024-7
free t3|ft3,free triiodothyronine,serum free t3
total t4|t4,serum t4,thyroxine
total t3|t3,serum t3,triiodothyronine
anti-thyroid peroxidase (anti-TPO) antibodies|anti tpo,anti tpo antibodies,anti tpo antibody,tpo antibodies,thyroid peroxidase antibodies,anti thyroid peroxidase antibodies,antithyroid antibodies|8099-4
anti-thyroglobulin antibody|anti tg,anti thyroglobulin,thyroglobulin antibody
thyroglobulin|serum thyroglobulin
tsh receptor antibody|trab,tsh receptor antibodies,thyroid stimulating immunoglobulin
serum prolactin|prolactin,prolactin level,s prolactin|2842-3
luteinizing hormone (LH)|lh,luteinising hormone,luteinizing hormone,serum lh,lh level|10501-5
follicle stimulating hormone (FSH)|fsh,follicle stimulating hormone,serum fsh,fsh level|15067-2
lh fsh ratio|lh and fsh ratio
serum total testosterone|total testosterone,testosterone,serum testosterone,testosterone level,=serum testosterone|2986-8
free testosterone|serum free testosterone
serum estradiol|estradiol,oestradiol,e2 level|2243-4
serum progesterone|progesterone,progesterone level,day 21 progesterone|2839-9
anti mullerian hormone|amh,anti mullerian hormone level,serum amh
dheas|dhea s,dhea sulphate,dhea sulfate,dehydroepiandrosterone sulfate|2191-5
17-hydroxyprogesterone|17 oh progesterone,17 hydroxyprogesterone,17 ohp
sex hormone binding globulin|shbg
serum cortisol|cortisol,morning cortisol,8 am cortisol,am cortisol,cortisol level|2143-6
dexamethasone suppression test|overnight dexamethasone suppression test,dst
acth|serum acth,plasma acth
parathyroid hormone|pth,intact pth,ipth,serum pth|2731-8
growth hormone|serum growth hormone
igf-1|igf 1,insulin like growth factor 1
aldosterone renin ratio|aldosterone to renin ratio,plasma aldosterone renin ratio
plasma metanephrines|metanephrines,urine metanephrines,24 hour urine metanephrines
insulin resistance (homa-ir)|homa ir,homa

# vitamins and iron
serum vitamin b12|vitamin b12 level,=vitamin b12,b12 level,serum b12,~b12,s vitamin b12,cobalamin level|2132-9
serum folate|folate,folic acid level,serum folic acid,folate level|2284-8
serum 25-hydroxy vitamin D|serum vitamin d,vitamin d level,vitamin d3 level,25 hydroxy vitamin d,~vitamin d,25 oh vitamin d,~vitamin d3,vitamin d levels,s vitamin d,vitamin d 25 hydroxy,serum vitamin d3|62292-8
serum ferritin|ferritin,ferritin level,s ferritin|2276-4
iron studies|iron profile,iron panel,iron study|
serum iron|s iron,iron level|2498-4
total iron binding capacity|tibc|2500-7
transferrin saturation|tsat,transferrin sat,iron saturation|2502-3
serum zinc|zinc level
vitamin a level|serum vitamin a
serum copper|copper level
serum ceruloplasmin|ceruloplasmin

# tumour markers
prostate specific antigen (PSA)|psa,prostate specific antigen,serum psa,total psa,s psa|2857-1
free psa|free to total psa ratio,free psa ratio
carcinoembryonic antigen (CEA)|cea,carcinoembryonic antigen,serum cea|2039-6
ca 125|ca125,cancer antigen 125,serum ca 125|10334-1
ca 19-9|ca 19 9,ca199,ca 19.9,cancer antigen 19 9|24108-3
ca 15-3|ca 15 3,ca153,cancer antigen 15 3
alpha fetoprotein|afp,serum afp,alpha feto protein|1834-1
beta 2 microglobulin|b2 microglobulin
serum chromogranin a|chromogranin a,chromogranin

# infection serology
dengue ns1 antigen|ns1 antigen,dengue ns1,ns1,dengue antigen,ns1 ag,dengue ns1 ag,dengue n s one antigen,n s one antigen,dengue n s one,n s one
dengue igm antibody|dengue igm,dengue igm antibodies,dengue igm elisa
dengue serology|dengue igg igm,dengue antibodies,dengue igg and igm,dengue igm and igg,dengue profile,dengue test,dengue panel
widal test|widal
typhidot|typhoid igm,typhidot test,typhidot igm,typhoid test
scrub typhus igm|scrub typhus,scrub typhus antibody,weil felix test,weil felix
leptospira igm|leptospira,leptospirosis igm,lepto igm
chikungunya igm|chikungunya,chikungunya antibody
HIV test|hiv 1 and 2 antibodies,hiv serology,hiv elisa,hiv antibody test,hiv 1 2 antibody,hiv screening,~hiv,hiv rapid test,hiv tridot
hiv viral load|hiv rna
cd4 count|cd4,cd4 cell count
vdrl|vdrl test,~rpr,rpr test,syphilis serology,tpha
toxoplasma igm|toxoplasma,torch panel,torch test,torch profile
rubella igg|rubella antibody,rubella serology
covid test|covid rt pcr,covid 19 rt pcr,covid antigen test,covid 19 test,covid rapid antigen test,sars cov 2 pcr,covid pcr
rt pcr|rt pcr test
rapid influenza test|influenza rapid test,rapid flu test,flu test,rapid influenza antigen test,flu swab,influenza swab,influenza test
rapid strep test|rapid strep,rapid antigen test for strep,strep test,rapid strep antigen test,strep screen,rapid strep screen
mono spot test|monospot,monospot test,mono test,heterophile antibody test,ebv serology
brucella serology|brucella agglutination test,brucella
interferon gamma release assay|igra,quantiferon,quantiferon tb gold,tb gold test
mantoux test|tuberculin skin test,mantoux,tst,ppd test,ppd skin test
cbnaat|genexpert,gene xpert,cbnaat test,xpert mtb rif,truenat,=sputum cbnaat
sputum afb smear|sputum afb,sputum for afb,sputum for acid fast bacilli,sputum smear,sputum smear for afb,sputum zn stain,sputum for zn stain,sputum afb smear
stool for h pylori|stool h pylori

# microbiology
culture|culture and sensitivity,c s,culture sensitivity,culture and antibiotic sensitivity
blood culture|blood culture and sensitivity,blood c s,blood cultures,blood for culture,blood culture sensitivity|600-7
urine culture|urine culture and sensitivity,urine c s,urine culture sensitivity,urine for culture,urine for culture and sensitivity,urine cultures,urine culture and sensitivity test|630-4
stool culture|stool for culture,stool culture and sensitivity,stool c s|625-4
sputum culture|sputum for culture,sputum culture and sensitivity,sputum c s
throat swab culture|throat swab,throat culture,throat swab for culture,throat swab culture and sensitivity|626-2
pus culture|pus for culture,pus culture and sensitivity,pus c s,wound swab,wound culture,wound swab culture
ear swab culture|ear swab,ear discharge culture,ear swab for culture
eye swab culture|conjunctival swab,eye swab
nasal swab|nasopharyngeal swab,nasal swab culture
high vaginal swab|hvs,vaginal swab,high vaginal swab culture,vaginal swab culture
urethral swab|urethral discharge gram stain,urethral swab culture
gram stain|gram staining
KOH mount|skin scraping for koh,koh smear,koh preparation,koh,=koh mount of skin scraping,koh mount of the scraping,koh of skin scraping,koh mount of scraping,skin scraping,=nail clipping for koh
fungal culture|fungal culture of scraping,fungal culture and sensitivity
tzanck smear|tzanck test
slit skin smear|slit skin smear for afb
csf analysis|cerebrospinal fluid analysis,csf study,csf examination,lumbar puncture,csf routine
pleural fluid analysis|pleural fluid study,pleural tap,pleural fluid examination
ascitic fluid analysis|ascitic tap,ascitic fluid study,ascitic fluid examination,diagnostic paracentesis
synovial fluid analysis|joint aspiration,synovial fluid study,joint fluid analysis

# urine
urine routine examination|urine routine,urine routine test,urine re,urine r e,urine r/e,urine routine and microscopy,urine analysis,=urinalysis,urine examination,urine test,urine r m,urine rm,urine routine microscopy,urine complete examination,complete urine examination,urine microscopy,urine rme,urine routine and microscopic examination|24356-8
urine dipstick|urine dip,dipstick,urine dipstick test,urine strip test,dipstick urinalysis,urine dip test,=urine dipstick for ketones,=urine dipstick for protein
urine ketones|urine ketone,~ketones,urine for ketones,urine acetone
urine pregnancy test|upt,pregnancy test,urine hcg,urine pregnancy card test,home pregnancy test,pregnancy card test|2106-3
urine protein|urine albumin,urine for albumin,urine for protein
urine bence jones protein|bence jones protein
urine for pus cells|urine pus cells
urine drug screen|urine toxicology screen,drug screen,urine drug test

# stool
stool routine examination|stool routine,stool re,stool r e,stool r/e,stool examination,stool test,stool analysis,stool routine and microscopy,stool microscopy,stool rm,stool r m,stool for routine examination,stool routine test
stool examination for ova and cysts|stool for ova and cyst,stool for ova and cysts,stool examination for ova and cyst,stool ova and cyst,stool ova cyst,stool for ova cyst,stool for ova and parasites,stool ova and parasites,stool o and p,stool for o and p,ova and parasites,stool for ova,stool for ova and cysts and parasites
stool occult blood|stool for occult blood,fecal occult blood,faecal occult blood,fobt,occult blood,stool ob,fecal immunochemical test,fit test,=stool for occult blood|2335-8
stool for reducing substances|stool reducing substances
stool for fat globules|fecal fat,faecal fat
clostridioides difficile toxin|c difficile toxin,c diff toxin,c diff test,clostridium difficile toxin
stool hanging drop|hanging drop,stool for vibrio cholerae

# semen and reproductive
semen analysis|semen test,seminal fluid analysis,sperm count
pap smear|pap test,cervical smear,cervical cytology,liquid based cytology,lbc
hpv dna test|hpv test,hpv testing,hpv dna
serum beta hcg|beta hcg,bhcg,serum hcg,quantitative beta hcg,beta hcg level
double marker test|double marker,dual marker test,dual marker
triple marker test|triple marker,triple test
quadruple marker test|quadruple marker,quad screen,quadruple test
non invasive prenatal testing|nipt,nipt test,cell free dna test
antibody screen|indirect antibody screen,red cell antibody screen,ict titre
group b strep swab|gbs swab,group b streptococcus swab,gbs culture

# pathology
biopsy|tissue biopsy,biopsy and histopathology
skin biopsy|punch biopsy,skin punch biopsy
histopathology|histopathological examination,hpe,histopathology examination
fnac|fine needle aspiration cytology,fine needle aspiration,fnac test
excision biopsy|excisional biopsy
endometrial biopsy|endometrial sampling,pipelle biopsy
cervical biopsy|colposcopic biopsy
breast biopsy|core needle biopsy,trucut biopsy,tru cut biopsy,core biopsy
prostate biopsy|trus biopsy,trus guided biopsy
liver biopsy|percutaneous liver biopsy
kidney biopsy|renal biopsy
lymph node biopsy|node biopsy
cytology|fluid cytology,urine cytology,sputum cytology

# genetics
karyotyping|karyotype,chromosomal analysis
genetic testing|gene testing,genetic test

# imaging (site)
x-ray|x ray,xray,radiograph,x rays,plain x ray,plain radiograph,skiagram
chest x-ray|chest x ray,x ray chest,cxr,chest xray,xray chest,x ray of the chest,chest radiograph,x ray of chest,chest film,x ray thorax,chest x rays
x-ray kub|x ray kub,xray kub,kub x ray,plain x ray kub,x ray abdomen kub
x-ray pns|x ray pns,pns x ray,x ray paranasal sinuses,x ray of paranasal sinuses,pns view,waters view,x ray pns waters view
ultrasound|usg,sonography,ultrasonography,ultrasound scan,sonogram
ultrasound abdomen|usg abdomen,ultrasound of abdomen,ultrasound whole abdomen,usg whole abdomen,abdominal ultrasound,sonography abdomen,ultrasound of the abdomen,usg of abdomen,ultrasound of whole abdomen,usg of the abdomen,abdominal sonography,=abdominal ultrasound,ultrasound of the whole abdomen,right upper quadrant ultrasound,ruq ultrasound
ultrasound pelvis|usg pelvis,ultrasound of pelvis,ultrasound of the pelvis,=pelvic ultrasound,pelvic sonography,transabdominal ultrasound
ultrasound kub|usg kub,usgkub,ultrasound of kub,ultrasound kidneys,ultrasound of the kidneys,renal ultrasound,=renal ultrasound,kidney ultrasound,ultrasound kub region,usg kub region,ultrasound kidney ureter bladder
transvaginal ultrasound|tvs,transvaginal scan,transvaginal sonography,tvus,tvs scan,=transvaginal scan
post void residual bladder scan|post void residual,post void residual urine,post void residual volume,=bladder scan
ultrasound neck|usg neck,ultrasound of the neck,neck ultrasound
ultrasound thyroid|usg thyroid,thyroid ultrasound,ultrasound of the thyroid,=thyroid ultrasound,ultrasound of thyroid
ultrasound breast|usg breast,breast ultrasound,sonomammography,ultrasound of the breast
ultrasound scrotum|usg scrotum,scrotal ultrasound,ultrasound of the scrotum,testicular ultrasound
soft tissue ultrasound|ultrasound of the swelling,usg local part,ultrasound local part,usg of the swelling
obstetric ultrasound|obstetric scan,=dating scan,=viability scan,obstetric usg,=viability and dating ultrasound,viability and dating scan,early pregnancy scan,=first trimester scan,antenatal scan,pregnancy scan,=dating ultrasound,=viability ultrasound
obstetric growth scan|=growth scan,fetal growth scan,growth ultrasound,third trimester scan
anomaly scan|level 2 scan,level ii scan,target scan,fetal anomaly scan,=anomaly scan,tiffa scan,anatomy scan,fetal anatomy scan,=level 2 ultrasound,20 week scan
nuchal translucency (NT) scan|nt scan,nuchal translucency scan,nt nb scan,nt and nb scan,nuchal scan
fetal doppler|obstetric doppler,umbilical artery doppler,fetal doppler study
fetal echocardiography|fetal echo
follicular study|follicular monitoring,follicle monitoring,follicular tracking
doppler ultrasound|doppler,doppler study,colour doppler,color doppler,duplex ultrasound,duplex scan
venous duplex ultrasound|venous doppler,venous duplex,doppler of leg veins,venous duplex scan,lower limb venous doppler,venous doppler of the legs,venous doppler of lower limbs,=venous doppler,leg venous doppler,dvt scan,=compression ultrasound
arterial doppler|arterial duplex,arterial doppler study,lower limb arterial doppler,peripheral arterial doppler
carotid doppler|carotid duplex,carotid ultrasound,=carotid ultrasound,carotid doppler study
renal artery doppler|renal doppler
ankle brachial index|abi,ankle brachial pressure index,abpi
ct scan|ct,computed tomography,cat scan,ct scans
ct brain|ct head,ct scan brain,ct scan head,ct scan of the brain,ct of the head,non contrast ct head,ncct head,ncct brain,plain ct brain,ct of the brain
ct chest|ct thorax,ct scan chest,ct scan of the chest,cect chest,ct of the chest
hrct chest|hrct,high resolution ct chest,hrct thorax,hrct of the chest,high resolution ct
ct abdomen|ct abdomen and pelvis,ct scan abdomen,cect abdomen,contrast ct abdomen,ct of the abdomen,ct scan of the abdomen,ct abdomen pelvis
ct kub|ctkub,ct scan kub,ncct kub,plain ct kub,ct urography,ct of kub,ct kub scan
ct pns|ct paranasal sinuses,ct scan pns,ct sinuses,ct of the sinuses
ct angiography|cta,ct angiogram,ct coronary angiography,ct pulmonary angiography,ctpa
mri|mri scan,magnetic resonance imaging,mr imaging,mri scans
mri brain|mri head,mri of the brain,mri scan brain,mri of brain,mri brain with contrast,mri brain plain
mri spine|mri lumbar spine,mri cervical spine,mri ls spine,mri lumbosacral spine,mri dorsal spine,mri thoracic spine,mri of the spine,mri of the lumbar spine,mri of the cervical spine,mri whole spine,mri of the lumbosacral spine
mri knee|mri of the knee,mri knee joint,mri of knee
mri shoulder|mri of the shoulder,mri shoulder joint
mri pelvis|mri of the pelvis
mrcp|magnetic resonance cholangiopancreatography,mr cholangiography
mr angiography|mra,mr angiogram
pet ct|pet scan,pet ct scan
mammography|mammogram,screening mammogram,bilateral mammogram,=screening mammogram,diagnostic mammogram,mammograms
dexa scan|bone density scan,bmd,bone mineral density,dexa,dxa scan,bone densitometry,bone density test,=bone density scan
barium swallow|barium meal,barium study
barium enema|barium follow through
hysterosalpingography|hsg,hysterosalpingogram
intravenous pyelogram|ivp,ivu,intravenous urography
micturating cystourethrogram|mcu,mcug,vcug,voiding cystourethrogram
bone scan|nuclear bone scan,whole body bone scan
thyroid scan|thyroid uptake scan,technetium thyroid scan,radioiodine uptake scan
renal scan|dtpa scan,dmsa scan,renal dtpa scan
orthopantomogram|opg,opg x ray,dental x ray,panoramic dental x ray
cbct|cone beam ct
sinus x-ray|sinus x ray,x ray sinuses

# cardiology
electrocardiogram (ECG)|ecg,ekg,electrocardiograph,=electrocardiogram,12 lead ecg,12 lead ekg,resting ecg,electrocardiography|11524-6
echocardiogram|echo,=echocardiography,echo study,transthoracic echo,tte,cardiac echo,=transthoracic echocardiogram,echo doppler,colour doppler echo,color doppler echo
transoesophageal echocardiogram|tee,transesophageal echo,transoesophageal echo,transesophageal echocardiogram
stress echocardiography|stress echo,dobutamine stress echo,dse
treadmill test|tmt,stress test,=exercise stress test,treadmill stress test,exercise ecg,exercise tolerance test
holter monitoring|holter,24 hour holter,holter monitor,24 hour holter monitoring,48 hour holter,ambulatory ecg,=holter monitor
event monitor|cardiac event monitor,loop recorder,=event recorder
ambulatory blood pressure monitoring|abpm,24 hour blood pressure monitoring,24 hour ambulatory blood pressure monitoring
coronary angiography|cag,coronary angiogram,cardiac catheterisation,cardiac catheterization
ct coronary calcium score|calcium score,coronary calcium score,cac score,cardiac calcium score
myocardial perfusion scan|thallium scan,nuclear stress test,myocardial perfusion imaging,spect,mpi
tilt table test|head up tilt test,tilt test

# pulmonary and sleep
pulmonary function test|pft,pfts,lung function test,lung function tests,pulmonary function tests,=spirometry,=spirometry with reversibility,=spirometry with bronchodilator reversibility,=pft with reversibility,=spirometry with bronchodilator,spirometry test,=spirometry pre and post bronchodilator,lung function testing
peak expiratory flow rate|pefr,peak flow,peak expiratory flow,peak flow meter reading,peak flow measurement
dlco|diffusion capacity,diffusing capacity
six minute walk test|6 minute walk test,6mwt,six minute walk
polysomnography|sleep study,overnight sleep study,psg,=sleep study,=home sleep apnea test,home sleep study,home sleep test,level 3 sleep study,=home sleep apnoea test
pulse oximetry|oximetry,overnight oximetry
fractional exhaled nitric oxide|feno,exhaled nitric oxide

# neurology
electroencephalogram (EEG)|eeg,=sleep deprived eeg,=sleep deprived electroencephalogram,=eeg with sleep deprivation,video eeg,electroencephalography,=video eeg,=ambulatory eeg
nerve conduction study|ncs,ncv,nerve conduction velocity,nerve conduction studies,ncv study,=nerve conduction velocity
electromyography|emg,emg study,=emg
visual evoked potential|vep,visual evoked potentials
brainstem evoked response audiometry|bera,abr,auditory brainstem response
mini mental state examination|mmse,mini mental status examination,moca,montreal cognitive assessment,cognitive screen

# endoscopy
upper gi endoscopy|endoscopy,ogd,ugi endoscopy,upper endoscopy,egd,gastroscopy,oesophagogastroduodenoscopy,esophagogastroduodenoscopy,upper g i endoscopy,=upper gi endoscopy,uge,ugie,upper gi scopy,ugi scopy
colonoscopy|full colonoscopy,colonoscopic examination,=screening colonoscopy
sigmoidoscopy|flexible sigmoidoscopy,proctosigmoidoscopy
proctoscopy|proctoscopic examination
bronchoscopy|fibreoptic bronchoscopy,fiberoptic bronchoscopy
cystoscopy|cystourethroscopy
hysteroscopy|diagnostic hysteroscopy
colposcopy|colposcopic examination
laparoscopy|diagnostic laparoscopy
ercp|endoscopic retrograde cholangiopancreatography
endoscopic ultrasound|eus
capsule endoscopy|video capsule endoscopy

# ear nose throat
audiometry|pure tone audiometry,pta,hearing test,audiogram,=hearing screen,=hearing test,=hearing screening,hearing assessment,=audiogram
impedance audiometry|tympanometry,=tympanometry,impedance test
otoacoustic emissions|oae,oae screening,=newborn hearing screen
nasal endoscopy|diagnostic nasal endoscopy,dne,nasal endoscopic examination
laryngoscopy|video laryngoscopy,indirect laryngoscopy,direct laryngoscopy,videolaryngoscopy,=flexible laryngoscopy,fibreoptic laryngoscopy,vls
videonystagmography|vng,electronystagmography,eng
caloric test|caloric testing

# eye
fundoscopy|fundus examination,dilated fundus examination,=dilated eye exam,ophthalmoscopy,=fundus photography,fundus photo,=retinal exam,=dilated retinal exam
visual acuity test|vision test,eye test,=vision screen,=vision screening,=visual acuity,snellen chart,vision check,refraction,=eye exam
intraocular pressure|iop,tonometry,=tonometry,iop measurement,eye pressure check
optical coherence tomography|oct,oct scan,oct macula,oct of the macula,=oct of the optic disc,oct rnfl
visual field test|perimetry,visual fields,humphrey visual field,=visual field testing
slit lamp examination|slit lamp
b scan ultrasound|b scan,ocular ultrasound,b scan of the eye
fundus fluorescein angiography|ffa,fluorescein angiography
schirmer test|schirmer's test,schirmers test
colour vision test|ishihara test,color vision test,ishihara chart

# skin and allergy
woods lamp examination|wood's lamp,woods lamp
dermoscopy|dermatoscopy

# bone and joint
skeletal survey|x ray skeletal survey
`;

export interface Investigation {
  name: string;
  /** Every other way the test is named, as plain text (the speech engine's word lists take these too). */
  aliases: string[];
  /** Aliases that are names in their own right: shown as said rather than as `name`. */
  namedAs: string[];
  /** Aliases that name the test only inside a list of tests or after a word such as "check". */
  inListOnly: string[];
  loinc?: string;
  /** Imaging and other tests named together with the body part they look at. */
  takesSite: boolean;
  /** Names of the tests this one includes (a panel's components). */
  parts: string[];
}

function parse(table: string): Investigation[] {
  const out: Investigation[] = [];
  let takesSite = false;
  for (const line of table.trim().split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      takesSite = line.includes('(site)');
      continue;
    }
    const [name = '', aliasText = '', loinc = '', parts = ''] = line.split('|').map((s) => s.trim());
    const raw = aliasText.split(',').map((s) => s.trim()).filter(Boolean);
    const plain = (a: string): string => a.replace(/^[=~]/, '');
    out.push({
      name,
      aliases: raw.map(plain),
      namedAs: raw.filter((a) => a.startsWith('=')).map(plain),
      inListOnly: raw.filter((a) => a.startsWith('~')).map(plain),
      ...(loinc ? { loinc } : {}),
      takesSite,
      parts: parts.split(',').map((s) => s.trim()).filter(Boolean),
    });
  }
  return out;
}

export const INVESTIGATIONS: readonly Investigation[] = parse(TABLE);
